/// The serial executor of a ``SessionPool``: runs the pool's jobs through a ``SchemeDeliveryQueue``.
///
/// This is how the pool honours an engine's thread affinity: an actor whose executor is the GLib
/// main context (or the main queue) runs every line of the pool — and every `nonisolated(nonsending)`
/// session method it calls — there.
final class SessionPoolExecutor: SerialExecutor {
    let base: any SchemeDeliveryQueue

    init(_ base: any SchemeDeliveryQueue) {
        self.base = base
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        base.execute { job.runSynchronously(on: executor) }
    }
}

/// A weak reference to a session's holder, made where the holder lives and sent to the pool.
///
/// `@unchecked Sendable`: the pool only asks whether the object is still alive; it never calls it.
final class SessionHolderReference: @unchecked Sendable {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
