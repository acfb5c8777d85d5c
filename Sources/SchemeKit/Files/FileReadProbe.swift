import Synchronization

/// A test hook: records which files a ``LocalFileHandler`` opened and how many chunks it read,
/// for the Swift task (and its children) that binds ``current``.
///
/// Internal; costs one task-local lookup per opened file and per read when unbound.
final class FileReadProbe: Sendable {
    @TaskLocal static var current: FileReadProbe?

    struct FileID: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    private struct State {
        var opened: [FileID] = []
        var reads = 0
        var bytes: Int64 = 0
    }

    private let state = Locked(State())

    init() {}

    func opened(device: UInt64, inode: UInt64) {
        state.withLock { $0.opened.append(FileID(device: device, inode: inode)) }
    }

    func read(bytes: Int) {
        state.withLock {
            $0.reads += 1
            $0.bytes += Int64(bytes)
        }
    }

    var openedFiles: [FileID] { state.withLock { $0.opened } }
    var reads: Int { state.withLock { $0.reads } }
    var bytesRead: Int64 { state.withLock { $0.bytes } }
}
