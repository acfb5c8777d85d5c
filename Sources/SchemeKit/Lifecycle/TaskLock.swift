#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Android)
    import Android
#else
    import Foundation
#endif

/// The recursive lock of one ``GuardedTask``: a pthread mutex allocated with the task.
///
/// Not `NSRecursiveLock`, which costs an object and a second allocation per task, nor
/// `Synchronization.Mutex`, which is not recursive and whose contended handoff (a PI futex on
/// Linux) the thread sanitizer cannot see. Recursive so an engine may call `stop()` from inside
/// one of its own sink callbacks. The owner calls ``destroy()`` exactly once, in its `deinit`.
struct TaskLock {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>

        init() {
            mutex = .allocate(capacity: 1)
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        }

        func lock() { pthread_mutex_lock(mutex) }

        func unlock() { pthread_mutex_unlock(mutex) }

        func destroy() {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }
    #else
        private let mutex = NSRecursiveLock()

        func lock() { mutex.lock() }

        func unlock() { mutex.unlock() }

        func destroy() {}
    #endif
}
