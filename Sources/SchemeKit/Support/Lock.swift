#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Android)
    import Android
#endif

/// SchemeKit's one lock: a pthread mutex, used by the core, the testing kit and every adapter.
///
/// Why not `Synchronization.Mutex`: on Linux a contended `Mutex` hands over through a
/// priority-inheritance futex inside the kernel, which the thread sanitizer cannot see, so state
/// it protects is reported as racing (`swift test --sanitize=thread` then fails on correct code).
/// A pthread mutex is intercepted by the sanitizer and costs the same uncontended. Everything
/// that needs mutual exclusion uses this type or ``Locked``, which is built on it.
///
/// A `Lock` is not copyable: it owns its mutex and destroys it when it goes away. A recursive lock
/// lets the owner of the lock call back into code that takes it again (an engine stopping a task
/// from inside one of the task's own sink callbacks).
package struct Lock: ~Copyable, @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates an unlocked lock; `recursive` lets the owning thread take it again.
    package init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        Self.initialise(mutex, recursive: recursive)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock, waiting for it.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock. Only the thread that took it may.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Initialises a pthread mutex in place (shared with ``Locked``).
    static func initialise(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, recursive: Bool) {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        if recursive {
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        }
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }
}

/// A value behind SchemeKit's ``Lock``: the shape of `Synchronization.Mutex.withLock`, in one
/// allocation (the value and the mutex share it).
///
/// `@unchecked Sendable` because the value is only reached inside ``withLock(_:)``, with the
/// mutex held. `body` must not take the same lock again.
package final class Locked<Value>: @unchecked Sendable {
    private let storage: Storage
    private let value: UnsafeMutablePointer<Value>
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// The value (the buffer's header) and the mutex (its one element), in one allocation.
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        deinit {
            // The header (the value) is destroyed by `ManagedBuffer`; the element is the mutex.
            withUnsafeMutablePointerToElements { _ = pthread_mutex_destroy($0) }
        }
    }

    /// Puts `value` behind a new lock.
    package init(_ value: Value) {
        // `create` returns an instance of the class it is called on.
        let storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
        self.storage = storage
        // The storage is a class instance this object keeps alive: the addresses stay valid.
        (self.value, self.mutex) = storage.withUnsafeMutablePointers { ($0, $1) }
        Lock.initialise(mutex, recursive: false)
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
