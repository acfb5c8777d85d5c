#if Chromium
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import Testing

    @testable import SchemeKitChromium
    import SchemeKitBrowserSupport

    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct ChromiumConnectionTests {
        @Test(arguments: ChromiumWireFormat.allCases)
        func launchesAndEvaluates(wireFormat: ChromiumWireFormat) async throws {
            try await ChromiumHarness.withBrowser(ChromiumLaunchOptions(wireFormat: wireFormat)) { browser in
                #expect(try await browser.version().hasPrefix("Chrome/"))
                let page = try await browser.newPage()
                #expect(try await page.evaluate("Promise.resolve(20 + 22)") == .number(42))
                #expect(try await page.evaluate("'héllo ☃'") == .string("héllo ☃"))
                await #expect(throws: EngineError.self) { try await page.evaluate("Promise.reject(new Error('x'))") }
                let png = try await page.screenshot()
                #expect(png.starts(with: [0x89, 0x50, 0x4e, 0x47]))
            }
        }

        @Test func aProtocolErrorCarriesItsCode() async throws {
            try await ChromiumHarness.withBrowser { browser in
                let error = await #expect(throws: EngineError.self) {
                    try await browser.connection.send("Target.attachToTarget", .object(["targetId": .string("nope")]))
                }
                #expect(error?.code == .protocolError)
                #expect(error?.protocolCode != nil)
            }
        }

        @Test func killingChromiumFailsEveryPendingCommand() async throws {
            try await ChromiumHarness.withBrowser { browser in
                let page = try await browser.newPage()
                // Commands that cannot finish before the kill: promises that never settle.
                let pending = (0..<5).map { _ in
                    Task { try await page.evaluate("new Promise(() => {})") }
                }
                let events = browser.connection.events()
                // All five are out, waiting for answers that never come.
                #expect(await eventually { browser.connection.pendingCommands("Runtime.evaluate") == 5 })
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
            }
        }
    }
#endif
