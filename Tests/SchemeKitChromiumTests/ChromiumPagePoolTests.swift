#if Chromium
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import Testing

    @testable import SchemeKitChromium

    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct ChromiumPagePoolTests {
        @Test func pagesArePrewarmedResetAndReused() async throws {
            try await ChromiumHarness.with { registry in
                try registry.register(LocalFileHandler(root: ChromiumHarness.sampleApp), for: "app")
            } _: { harness in
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
                // The page start() warmed, then the same page again: both from the pool.
                #expect(statistics.hits == 2 && statistics.misses == 0, "\(statistics)")
                await pool.shutDown()
            }
        }

        @Test func aPooledPageLoadsFasterThanAColdOne() async throws {
            try await ChromiumHarness.with { registry in
                try registry.register(LocalFileHandler(root: ChromiumHarness.sampleApp), for: "app")
            } _: { harness in
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
            }
        }
    }

    final class Holder: Sendable {}
#endif
