import Dispatch
import Foundation

/// Whether the caller runs where WebKit requires its calls: WebKit's main thread.
///
/// On Apple platforms that is the main thread. On Linux, once the test runner's async `main` has
/// called `dispatch_main()`, the main thread is parked and the main queue — which is also the
/// main actor's executor — is drained by a worker thread, so `Thread.isMainThread` is `false` in
/// main-actor code. The stand-in therefore counts a call as being on WebKit's main thread when it
/// runs on the main thread *or* in a job of the main queue (marked with a queue-specific key).
public enum StandInMainThread {
    private static let key = DispatchSpecificKey<Bool>()

    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    /// Marks the main queue; called by the stand-in's engine before it starts a task, and cheap
    /// afterwards.
    public static func prepare() {
        _ = marked
    }

    /// Whether the current thread is the main thread or runs a job of the main queue.
    public static var isCurrent: Bool {
        prepare()
        return Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true
    }
}
