/// A call WebKit would have answered with an exception: the five `NSInternalInconsistencyException`s
/// of `WKURLSchemeTask.mm`, and a call off the main thread.
///
/// WebKit raises; an Objective-C exception crosses Swift frames as an abort (tauri-apps/wry#1822).
/// The stand-in records the violation and ignores the call, so a test can count them.
public enum StandInViolation: Hashable, Sendable, CustomStringConvertible {
    /// "This task has already been stopped": any call after WebKit stopped the task (the stop
    /// counts from the moment WebKit decides to call `webView(_:stop:)`, before it does).
    case taskAlreadyStopped(call: String)
    /// "[WKURLSchemeTask didFinish/didFailWithError] has already been called for this task": any
    /// call after the task completed.
    case completeAlreadyCalled(call: String)
    /// "[WKURLSchemeTask didReceiveData:] has already been called for this task": a response after data.
    case dataAlreadySent
    /// "No response has been sent for this task": data, or `didFinish`, before any response.
    case noResponseSent(call: String)
    /// "No redirects are allowed after the response": only reachable through the private
    /// `_willPerformRedirection:` SPI, which the stand-in does not declare (the adapter never calls it);
    /// listed so that the five exceptions are all named.
    case redirectAfterResponse
    /// A call off the main thread (``StandInMainThread/isCurrent``). Recent WebKit hops such calls to the main run loop and waits
    /// (`callOnMainRunLoopAndWait`); older WebKit asserted. The adapter must never rely on either.
    case offMainThread(call: String)

    /// The exception's reason, as WebKit words it.
    public var description: String {
        switch self {
        case .taskAlreadyStopped(let call): "\(call): This task has already been stopped"
        case .completeAlreadyCalled(let call): "\(call): the task has already completed (didFinish/didFailWithError)"
        case .dataAlreadySent: "didReceiveResponse: didReceiveData: has already been called for this task"
        case .noResponseSent(let call): "\(call): No response has been sent for this task"
        case .redirectAfterResponse: "No redirects are allowed after the response"
        case .offMainThread(let call): "\(call): called off the main thread"
        }
    }
}
