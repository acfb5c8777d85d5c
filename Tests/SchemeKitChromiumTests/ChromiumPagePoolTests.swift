#if Chromium
    import Foundation
    import SchemeKit
    import Testing

    @testable import SchemeKitChromium

    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct ChromiumPagePoolTests {
        @Test func pagesArePrewarmedResetAndReused() async throws {
            let harness = try await ChromiumHarness.start { registry in
                try registry.register(LocalFileHandler(root: ChromiumHarness.sampleApp), for: "app")
            }
            defer { Task { await harness.close() } }
            let pool = harness.browser.makePagePool(
                configuration: SessionPoolConfiguration(warmCount: 1, maximumCount: 2))
            await pool.start()
            let holder = Holder()
            let page = try await pool.acquire(for: holder)
            try await page.navigate(to: "https://app.localhost/index.html")
            let report = try await page.evaluate("window.sampleReport")
            #expect(report["json"] == .bool(true) && report["css"] == .bool(true), "\(report)")
            try await pool.recycle(page)
            let afterReset = await pool.statistics
            #expect(afterReset.recycled == 1 && afterReset.discarded == 0, "\(afterReset)")
            #expect(try await page.evaluate("location.href") == .string("about:blank"))
            let again = try await pool.acquire(for: holder)
            #expect(again === page)
            #expect(await again.isHealthy())
            try await pool.recycle(again)
            let statistics = await pool.statistics
            #expect(statistics.hits >= 1, "\(statistics)")
            await pool.shutDown()
            await harness.close()
        }

        @Test func aPooledPageLoadsFasterThanAColdOne() async throws {
            let harness = try await ChromiumHarness.start { registry in
                try registry.register(LocalFileHandler(root: ChromiumHarness.sampleApp), for: "app")
            }
            defer { Task { await harness.close() } }
            let url = "https://app.localhost/index.html"
            let clock = ContinuousClock()
            var cold: [Duration] = []
            var warm: [Duration] = []
            let pool = harness.browser.makePagePool(
                configuration: SessionPoolConfiguration(warmCount: 1, maximumCount: 1))
            await pool.start()
            let holder = Holder()
            for _ in 0..<3 {
                cold.append(
                    try await clock.measure {
                        let page = try await harness.browser.newPage()
                        try await page.navigate(to: url)
                        try await page.close()
                    })
                let page = try await pool.acquire(for: holder)
                warm.append(try await clock.measure { try await page.navigate(to: url) })
                try await pool.recycle(page)
            }
            let coldMedian = cold.sorted()[1]
            let warmMedian = warm.sorted()[1]
            print("chromium page load: cold median \(coldMedian), pooled median \(warmMedian)")
            #expect(warmMedian < coldMedian)
            await pool.shutDown()
            await harness.close()
        }
    }

    final class Holder: Sendable {}
#endif
