/// What ``SchemeRegistry/answer(for:sink:)`` gives an engine adapter: the handler's answer, asked
/// once.
public enum SchemeRegistryAnswer: Sendable {
    /// The whole response, known now: write it in place (no task runs; nothing more reaches the sink).
    case response(SchemeCollectedResponse)
    /// The response is written over time through the sink, by this task once it is started; stop
    /// it when the engine gives up on the request.
    case task(SchemeTask)
}
