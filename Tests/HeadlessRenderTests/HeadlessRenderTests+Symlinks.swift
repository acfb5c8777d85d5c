// Built with the package trait `WebKitGTK`, `Chromium`, `Firefox` or several: each test runs on every
// engine built.
#if WebKitGTK || Chromium || Firefox
    import Foundation
    import LoopbackTestSupport
    import Testing

    /// `headless-render --symlinks` on each engine: a Sphinx-like site whose `_static/jquery.js`
    /// links out of the directory is served under `follow`, and refused under the default with a
    /// body the page can read that names the policy. (In the suite's extension, so these run one at
    /// a time with the others.)
    extension HeadlessRenderTests {
        /// A page that reads `_static/jquery.js` and reports its status and text; the script's
        /// real file is outside the directory, reached through a symbolic link.
        static func linkedSite() throws -> (site: URL, shared: URL) {
            let site = try Self.site(
                """
                <!doctype html><title>docs</title><script>
                window.check = fetch('_static/jquery.js').then(async (r) => r.status + ' ' + await r.text());
                </script>
                """)
            let shared = FileManager.default.temporaryDirectory
                .appendingPathComponent("headless-render-shared-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
            try Data("window.jQuery = 1;".utf8).write(to: shared.appendingPathComponent("jquery.js"))
            try FileManager.default.createDirectory(
                at: site.appendingPathComponent("_static"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: site.appendingPathComponent("_static/jquery.js").path,
                withDestinationPath: shared.appendingPathComponent("jquery.js").path)
            return (site, shared)
        }

        @Test(arguments: Engine.built) func symlinksFollowServesALinkOutOfTheDirectory(engine: Engine) async throws {
            let (site, shared) = try Self.linkedSite()
            defer {
                try? FileManager.default.removeItem(at: site)
                try? FileManager.default.removeItem(at: shared)
            }
            let run = try headlessRender(
                engine, [site.path, "--symlinks", "follow", "--json", "--eval", "window.check"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.eval == "\"200 window.jQuery = 1;\"")
            #expect(report.requests.first { $0.path == "/_static/jquery.js" }?.status == 200)
        }

        @Test(arguments: Engine.built) func aRefusedLinkTellsThePageWhy(engine: Engine) async throws {
            let (site, shared) = try Self.linkedSite()
            defer {
                try? FileManager.default.removeItem(at: site)
                try? FileManager.default.removeItem(at: shared)
            }
            let run = try headlessRender(engine, [site.path, "--json", "--eval", "window.check"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            let reason =
                "a symbolic link out of the served directory (symlink policy within-root; symlink policy follow serves it)"
            #expect(report.eval == "\"403 Forbidden: \(reason)\\n\"")
            #expect(report.requests.first { $0.path == "/_static/jquery.js" }?.status == 403)
        }

        @Test(arguments: Engine.built) func aBadSymlinksValueExitsWith64AndOneClearLine(engine: Engine) async throws {
            let site = try Self.site("<!doctype html>")
            defer { try? FileManager.default.removeItem(at: site) }
            let run = try headlessRender(engine, [site.path, "--symlinks", "sometimes"])
            #expect(run.status == 64)
            #expect(
                run.stderr.contains("invalid --symlinks 'sometimes': give follow, within-root or refuse"),
                "\(run.stderr)")
            // One error line (then ArgumentParser's usage hint, as for every other option).
            let errors = run.stderr.split(separator: "\n").filter { $0.lowercased().contains("error") }
            #expect(errors.count == 1, "\(run.stderr)")
        }
    }
#endif
