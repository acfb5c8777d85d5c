public import SchemeKit

extension SchemeHandler {
    /// This handler, with `fault` injected; see ``FaultInjectingHandler``.
    public func injecting(_ fault: HandlerFault) -> FaultInjectingHandler<Self> {
        FaultInjectingHandler(self, fault: fault)
    }
}
