#if Firefox
    import Foundation
    import LoopbackTestSupport
    import NIOCore
    import SchemeKit
    import SchemeKitTesting
    import Testing

    @testable import SchemeKitFirefox

    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct FirefoxConnectionTests {
        @Test func launchesEvaluatesPrintsAndCloses() async throws {
            try await FirefoxHarness.withBrowser { browser in
                #expect(browser.version.hasPrefix("1"), "\(browser.version)")
                #expect(browser.processIdentifier != nil && !browser.isAttached)
                let page = try await browser.newPage()
                #expect(try await page.evaluate("Promise.resolve(20 + 22)").decode(as: Int.self) == 42)
                #expect(try await page.evaluate("'héllo ☃'").decode(as: String.self) == "héllo ☃")
                #expect(
                    try await page.evaluate("({b: [1, 2.5, null, undefined], a: 'x'})").description
                        == #"{"a":"x","b":[1,2.5,null,null]}"#)
                #expect(try await page.evaluate("undefined") == .null)
                await #expect {
                    _ = try await page.evaluate("Promise.reject(new TypeError('boom-42'))")
                } throws: { error in
                    let error = error as? EngineError
                    return error?.code == .evaluationFailed && error?.message.contains("boom-42") == true
                }
                try await page.navigate(to: "data:text/html,<h1>Printed by Firefox</h1>")
                let png = try await page.screenshot()
                #expect(png.starts(with: [0x89, 0x50, 0x4e, 0x47]))
                let pdf = try await page.printToPDF()
                #expect(pdf.starts(with: Array("%PDF-".utf8)))
                let pid = try #require(browser.processIdentifier)
                await browser.close()
                // close() reaps the watchdog, not Firefox (not this process's child): Firefox is gone
                // when its /proc entry is.
                #expect(await waitUntilGone(pid), "Firefox is gone after close()")
            }
        }

        /// A Firefox that exits at once: the error quotes what it printed (its log is gone with the
        /// temporary directory, so naming the file would not help), and nothing is left in TMPDIR.
        @Test func aFirefoxThatExitsAtOnceIsReportedWithWhatItPrinted() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fake-firefox-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let fake = directory.appendingPathComponent("firefox")
            try Data("#!/bin/sh\necho 'Error: no DISPLAY environment variable specified' >&2\nexit 1\n".utf8)
                .write(to: fake)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
            var options = FirefoxLaunchOptions()
            options.executable = fake.path
            options.startupTimeout = .seconds(10)
            let before = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
            do {
                _ = try await FirefoxBrowser.launch(options)
                Issue.record("the fake Firefox launched")
            } catch let error as EngineError {
                #expect(error.code == .launchFailed)
                #expect(error.message.contains("no DISPLAY environment variable"), "\(error)")
                #expect(!error.message.contains("stderr.log"), "\(error)")
            }
            let left = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
                .subtracting(before).filter { $0.hasPrefix("schemekit-firefox-") }
            #expect(left.isEmpty, "\(left)")
        }

        @Test func killingFirefoxFailsEveryPendingCommand() async throws {
            try await FirefoxHarness.withBrowser { browser in
                let page = try await browser.newPage()
                let pending = (0..<3).map { _ in Task { try await page.evaluate("new Promise(() => {})") } }
                let events = browser.connection.events()
                // All three are out, waiting for answers that never come.
                #expect(await eventually { browser.connection.pendingCommands("script.evaluate") == 3 })
                browser.kill()
                for task in pending {
                    await #expect {
                        _ = try await task.value
                    } throws: { error in
                        (error as? EngineError)?.code == .disconnected
                    }
                }
                for await _ in events {}  // ends with the connection
                await #expect(throws: EngineError.self) { try await page.evaluate("1") }
            }
        }

        /// A message that is not BiDi (handed to the connection as if Firefox had sent it) closes the
        /// connection: pending commands throw `malformedMessage` naming it, nothing hangs, and the
        /// browser still closes.
        @Test func aMalformedMessageClosesTheConnectionWithATypedError() async throws {
            try await FirefoxHarness.withBrowser { browser in
                let page = try await browser.newPage()
                let pending = Task { try await page.evaluate("new Promise(() => {})") }
                // The evaluation is out, waiting for its answer.
                #expect(await eventually { browser.connection.pendingCommands("script.evaluate") == 1 })
                browser.connection.receive(ByteBuffer(string: #"{"type":"success","id":"#))
                await #expect {
                    _ = try await pending.value
                } throws: { error in
                    let error = error as? EngineError
                    return error?.code == .malformedMessage && error?.message.contains("not WebDriver BiDi") == true
                }
                #expect(browser.connection.isClosed)
                let pid = try #require(browser.processIdentifier)
                await browser.close()
                // close() reaps the watchdog, not Firefox: Firefox is gone when its /proc entry is.
                #expect(await waitUntilGone(pid), "Firefox is gone after close()")
            }
        }

        /// A command larger than the WebSocket's limit is refused before it is sent, and the
        /// connection stays up; Firefox's own messages over the limit close it with the limit named.
        @Test func messagesOverTheLimitFailClearly() async throws {
            try await FirefoxHarness.withBrowser(FirefoxLaunchOptions(maximumMessageSize: 64 << 10)) { browser in
                let page = try await browser.newPage()
                let big = String(repeating: "x", count: 100_000)
                await #expect {
                    _ = try await page.evaluate("'\(big)'.length")
                } throws: { error in
                    let error = error as? EngineError
                    return error?.code == .messageTooLarge && error?.message.contains("65536") == true
                }
                #expect(try await page.evaluate("1 + 1").decode(as: Int.self) == 2, "still connected")
                await #expect {
                    _ = try await page.evaluate("'x'.repeat(100000)")
                } throws: { error in
                    let error = error as? EngineError
                    return error?.code == .messageTooLarge && error?.message.contains("65536") == true
                }
                #expect(browser.connection.isClosed)
            }
        }

        /// `connect(to:)` attaches to a Firefox started as a separate process (as a grid would):
        /// it opens and closes its own pages, a second client is refused with a clear error while
        /// the first holds the session, and closing never stops Firefox.
        @Test func connectAttachesToAFirefoxItDidNotStart() async throws {
            let remote = try BrowserProcess(.firefox)
            defer { remote.stop() }
            try await FirefoxHarness.closing(try await FirefoxBrowser.connect(to: remote.webSocketURL)) { browser in
                #expect(browser.isAttached && browser.processIdentifier == nil)
                let page = try await browser.newPage()
                #expect(try await page.evaluate("navigator.userAgent").decode(as: String.self).contains("Firefox"))
                await #expect {
                    _ = try await FirefoxBrowser.connect(to: remote.webSocketURL)
                } throws: { error in
                    let error = error as? EngineError
                    return error?.code == .connectFailed && error?.message.contains("one at a time") == true
                }
            }
            #expect(remote.isRunning, "closing an attached browser leaves Firefox running")
            // The session ended: another client gets one.
            try await FirefoxHarness.closing(try await FirefoxBrowser.connect(to: remote.webSocketURL)) { again in
                let one = try await again.newPage().evaluate("1").decode(as: Int.self)
                #expect(one == 1)
            }
            #expect(remote.isRunning)
        }

        @Test func connectNamesWhatIsWrongWithTheURL() async throws {
            await #expect {
                _ = try await FirefoxBrowser.connect(to: URL(string: "wss://grid.example/session")!)
            } throws: { error in
                (error as? EngineError)?.code == .connectFailed && "\(error)".contains("wss://")
            }
            await #expect {
                _ = try await FirefoxBrowser.connect(to: URL(string: "ws://127.0.0.1:1/session")!, timeout: .seconds(5))
            } throws: { error in
                (error as? EngineError)?.code == .connectFailed && "\(error)".contains("127.0.0.1:1")
            }
        }
    }
#endif
