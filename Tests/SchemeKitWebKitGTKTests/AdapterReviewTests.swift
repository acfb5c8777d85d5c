// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Dispatch
    import Foundation
    import LoopbackTestSupport
    import HTTPTypes
    import SchemeKit
    import Synchronization
    import Testing
    @testable import SchemeKitWebKitGTK

    /// What a code review of the adapter found: a dropped session's view and signal handlers, a second
    /// `GLibMainThread.stop()`, request methods WebKit hands over, and URIs `URL` cannot parse.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct AdapterReviewTests {
        /// Set once, by a GObject weak reference's notification.
        final class Flag: Sendable {
            let value = Atomic<Bool>(false)
        }

        /// A session dropped without `tearDown()` (a failed warm load in `make` did exactly that) must
        /// take its view with it: before, the view lived on with signal handlers whose `user_data` was
        /// the freed session.
        @Test func aDroppedSessionDestroysItsView() async throws {
            let harness = try WebKitHarness.get()
            let finalized = Flag()
            var session: WebViewSession? = try await WebViewSession.make(executor: harness.glib.executor, warm: false)
            let view = UInt(bitPattern: session!.view)
            try await harness.glib.executor.run {
                g_object_weak_ref(
                    UnsafeMutableRawPointer(bitPattern: view)!.assumingMemoryBound(to: GObject.self),
                    { data, _ in
                        Unmanaged<Flag>.fromOpaque(data!).takeRetainedValue().value.store(true, ordering: .relaxed)
                    },
                    Unmanaged.passRetained(finalized).toOpaque())
            }
            session = nil
            let gone = await eventually { finalized.value.load(ordering: .relaxed) }
            #expect(gone, "the dropped session's view was finalised")
        }

        /// `make` whose warm load fails throws (and tears its view down: see the test above for what a
        /// dropped view meant).
        @Test func aFailedWarmLoadThrows() async throws {
            let harness = try WebKitHarness.get()
            let executor = harness.glib.executor
            let error = await #expect(throws: EngineError.self) {
                _ = try await withTimeLimit(.seconds(20), "a warm load that fails") {
                    // The handler of `app://failing/` throws before a head: the load fails.
                    try await WebViewSession.make(executor: executor, blankURL: "app://failing/index.html")
                }
            }
            // The same code a failed navigation has on every engine.
            #expect(error?.code == .navigationFailed, "\(String(describing: error))")
        }

        /// `stop()` then `stop()` again (say, the exit handler after an explicit stop) returns.
        @Test func stoppingTheMainThreadTwiceReturns() async throws {
            let context = g_main_context_new()
            defer { g_main_context_unref(context) }
            let thread = try GLibMainThread(context: context, initialisingGTK: false)
            let ran = try await thread.executor.run { true }
            #expect(ran)
            let returned = DispatchSemaphore(value: 0)
            Thread {
                thread.stop()
                thread.stop()
                returned.signal()
            }.start()
            #expect(returned.wait(timeout: .now() + 5) == .success, "the second stop() returned")
        }

        /// `stop()` called on the GLib thread itself (from a job, or a GLib callback: what an exit
        /// handler running there does) quits the loop and returns, instead of waiting for the thread
        /// it runs on to end (it used to deadlock). Then the thread ends, and a later `stop()` from
        /// another thread returns.
        @Test func stoppingOnTheMainThreadItselfReturns() async throws {
            let context = g_main_context_new()
            defer { g_main_context_unref(context) }
            let thread = try GLibMainThread(context: context, initialisingGTK: false)
            let returned = ConditionLock(false)
            thread.executor.execute {
                thread.stop()
                returned.withLock { $0 = true }
            }
            #expect(returned.wait(timeout: .seconds(5)) { $0 ? true : nil } == true, "stop() on the thread returned")
            let ended = ConditionLock(false)
            Thread {
                thread.stop()
                ended.withLock { $0 = true }
            }.start()
            #expect(ended.wait(timeout: .seconds(5)) { $0 ? true : nil } == true, "the thread ended")
            #expect(!thread.isCurrent)
        }

        /// `run` on an executor whose main thread has stopped throws instead of waiting for ever
        /// (a job queued after the loop ended never runs), and so does a `run` whose job was still
        /// queued when the loop ended.
        @Test func runAfterTheMainThreadStoppedThrows() async throws {
            let context = g_main_context_new()
            defer { g_main_context_unref(context) }
            let thread = try GLibMainThread(context: context, initialisingGTK: false)
            let executor = thread.executor
            // A job that stops the loop, then one queued right after it: the loop quits once the
            // first returns, with the second left over.
            let queuedBehind = Task {
                try await executor.run { thread.stop() }
                return try await executor.run { 1 }
            }
            let behind = try await withTimeLimit(.seconds(10), "a run queued as the loop ended") {
                await queuedBehind.result
            }
            // The loop quits once the job that stopped it returns, before it dispatches again.
            guard case .failure(let queuedError) = behind else {
                Issue.record("the run queued behind the stop ran: \(behind)")
                return
            }
            #expect((queuedError as? EngineError)?.code == .closed, "\(queuedError)")
            let ended = ConditionLock(false)
            Thread {
                thread.stop()
                ended.withLock { $0 = true }
            }.start()
            #expect(ended.wait(timeout: .seconds(5)) { $0 ? true : nil } == true, "the thread ended")
            let error = try await withTimeLimit(.seconds(10), "a run after the stop") {
                await #expect(throws: EngineError.self) { try await executor.run { 2 } }
            }
            #expect(error?.code == .closed, "\(String(describing: error))")
        }

        /// A method WebKit hands over reaches the registry as itself: the file handler's 405 (with
        /// `Allow`) reaches the page.
        @Test func anUnknownMethodReachesTheRegistryAsItself() async throws {
            let harness = try WebKitHarness.get()
            // Not `sessionShowingSampleApp()`: it clears the adapter's log, which suites running in
            // parallel read.
            try await tearingDown(try await harness.makeSession()) { session in
                try await withTimeLimit(.seconds(20), "loading the sample app") {
                    try await session.load("app://localhost/index.html")
                }
                let json = try await withTimeLimit(.seconds(20), "a PROPFIND fetch") {
                    try await session.callAsyncFunction(
                        """
                        const r = await fetch('/data/app.json', { method: 'PROPFIND', cache: 'no-store' });
                        return [r.status, r.headers.get('allow') || ''];
                        """)
                }
                let values = json.arrayValue
                #expect(values?.first?.intValue == 405, "status: \(json)")
                #expect(values?.last?.stringValue?.contains("GET") == true, "Allow: \(json)")
            }
        }

        /// Methods are taken as WebKit gives them; what is not an HTTP token is refused, never made GET.
        @Test(arguments: ["PROPFIND", "PURGE", "get"])
        func aMethodIsKeptAsGiven(_ method: String) throws {
            let request = try WebKitSchemeAdapter.schemeRequest(
                uri: "app://localhost/a", method: method, headerFields: [:], body: .empty)
            #expect(request.method.rawValue == method)
        }

        @Test func aMethodThatIsNotATokenFailsTheRequest() {
            #expect(throws: EngineError.self) {
                try WebKitSchemeAdapter.schemeRequest(
                    uri: "app://localhost/a", method: "GET /", headerFields: [:], body: .empty)
            }
        }

        /// A URI `URL` cannot parse fails the request with an error naming it, instead of becoming
        /// `file:///`.
        @Test(arguments: ["app://local host/index.html", "app://[::1/index.html", "not a uri"])
        func anUnparseableURIFailsTheRequest(_ uri: String) {
            #expect(throws: (any Error).self) {
                let request = try WebKitSchemeAdapter.schemeRequest(
                    uri: uri, method: "GET", headerFields: [:], body: .empty)
                Issue.record("became \(request.url.absoluteString)")
            }
        }
    }
#endif
