// Built with the package trait `WebKitGTK`, `Chromium`, `Firefox` or several: each test runs on every
// engine built.
#if WebKitGTK || Chromium || Firefox
    import Foundation
    import LoopbackTestSupport
    import Testing

    /// No state survives from one `headless-render` run to the next unless `--profile` keeps it: a
    /// `localStorage` key one run sets is absent in the next (WebKitGTK used its default, persistent
    /// network session: a key set in one run was read in the next), and present when both name the
    /// same profile directory.
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct HeadlessRenderProfileTests {
        static let set = "localStorage.setItem('left-behind', 'yes'); 'set'"
        static let read = "localStorage.getItem('left-behind')"

        func eval(_ engine: Engine, _ site: URL, _ expression: String, _ extra: [String] = []) throws -> String? {
            let run = try headlessRender(engine, [site.path, "--json", "--eval", expression] + extra)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            return try JSONDecoder().decode(HeadlessRenderTests.Report.self, from: Data(run.lastLine.utf8)).eval
        }

        @Test(arguments: Engine.built)
        func twoRunsInARowShareNoStorage(engine: Engine) async throws {
            let site = try HeadlessRenderTests.site("<!doctype html><title>storage</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            #expect(try eval(engine, site, Self.set, ["--no-media"].filter { _ in engine == .webkit }) == "\"set\"")
            #expect(try eval(engine, site, Self.read, ["--no-media"].filter { _ in engine == .webkit }) == "null")
        }

        @Test(arguments: Engine.built)
        func aProfileKeepsStorageFromOneRunToTheNext(engine: Engine) async throws {
            let site = try HeadlessRenderTests.site("<!doctype html><title>storage</title>")
            let profile = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UUID())")
            defer {
                try? FileManager.default.removeItem(at: site)
                try? FileManager.default.removeItem(at: profile)
            }
            let options = ["--profile", profile.path] + (engine == .webkit ? ["--no-media"] : [])
            #expect(try eval(engine, site, Self.set, options) == "\"set\"")
            #expect(try eval(engine, site, Self.read, options) == "\"yes\"")
        }
    }
#endif
