#if Chromium
    import Foundation
    import SchemeKit
    import Testing

    @testable import SchemeKitChromium
    import SchemeKitBrowserSupport

    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct ChromiumConnectionTests {
        @Test(arguments: ChromiumWireFormat.allCases)
        func launchesAndEvaluates(wireFormat: ChromiumWireFormat) async throws {
            let browser = try await ChromiumBrowser.launch(ChromiumLaunchOptions(wireFormat: wireFormat))
            defer { Task { await browser.close() } }
            #expect(try await browser.version().hasPrefix("Chrome/"))
            let page = try await browser.newPage()
            #expect(try await page.evaluate("Promise.resolve(20 + 22)") == .number(42))
            #expect(try await page.evaluate("'héllo ☃'") == .string("héllo ☃"))
            await #expect(throws: EngineError.self) { try await page.evaluate("Promise.reject(new Error('x'))") }
            let png = try await page.screenshot()
            #expect(png.starts(with: [0x89, 0x50, 0x4e, 0x47]))
            await browser.close()
        }

        @Test func aProtocolErrorCarriesItsCode() async throws {
            let browser = try await ChromiumBrowser.launch()
            do {
                try await browser.connection.send("Target.attachToTarget", .object(["targetId": .string("nope")]))
                Issue.record("expected an error")
            } catch let error as EngineError {
                #expect(error.code == .protocolError)
                #expect(error.protocolCode != nil)
            }
            await browser.close()
        }

        @Test func killingChromiumFailsEveryPendingCommand() async throws {
            let browser = try await ChromiumBrowser.launch()
            let page = try await browser.newPage()
            // Commands that cannot finish before the kill: promises that never settle.
            let pending = (0..<5).map { _ in
                Task { try await page.evaluate("new Promise(() => {})") }
            }
            let events = browser.connection.events()
            try await Task.sleep(for: .milliseconds(300))
            browser.kill()
            for task in pending {
                await #expect {
                    _ = try await task.value
                } throws: { error in
                    (error as? EngineError)?.code == .disconnected
                }
            }
            for await _ in events {}  // ends: the sequence finishes with the connection
            await #expect(throws: EngineError.self) { try await browser.connection.send("Browser.getVersion") }
            await browser.close()
        }
    }
#endif
