/// Which handler is running, so a task can record who answered it.
///
/// ``SchemeHandlerChain`` and the registry set ``name`` around each handler they call; the task
/// records the value current when the response head is written. Engines read it through
/// ``SchemeTask/respondingHandler`` for access logs and request traces.
package enum SchemeHandlerTrace {
    /// The name of the innermost handler now running; empty outside a handler.
    @TaskLocal package static var name: String = ""
}
