import Foundation

extension LocalFileHandler {
    /// Checks now that the root can be served from: the provider of a ``Root/dynamic(_:)`` root
    /// returns, and the directory exists and can be opened.
    ///
    /// Requests check the root anyway when they find nothing (see "A wrong root fails, it never
    /// passes" on ``LocalFileHandler``); call this at startup to report a wrong root before the
    /// first request, whatever ``Configuration/unavailableRoot`` says.
    ///
    /// ```swift
    /// let files = LocalFileHandler(root: packageDirectory)
    /// try files.checkRoot()   // LocalFileHandlerError.rootUnavailable(errno: ENOENT) for a typo
    /// ```
    ///
    /// - Throws: ``LocalFileHandlerError/rootUnavailable(errno:)``, or the error the root provider threw.
    public func checkRoot() throws {
        let path = try configuration.root.resolve().path(percentEncoded: false)
        switch POSIX.openDirectory(path) {
        case .success(let fd): POSIX.close(fd)
        case .failure(let error): throw LocalFileHandlerError.rootUnavailable(errno: error.code)
        }
    }

    /// The root's path for this request, or `nil` when the provider threw and unavailable roots pass.
    func resolveRootPath() throws -> String? {
        if let path = configuration.root.fixedPath { return path }
        do {
            return try configuration.root.resolve().path
        } catch {
            guard configuration.unavailableRoot == .pass else { throw error }
            return nil
        }
    }

    /// `.passed` for a request that found nothing, once the root itself is known to be there;
    /// otherwise the ``Configuration/unavailableRoot`` policy decides.
    func passUnlessRootIsUnavailable(_ rootPath: String) throws -> SchemeHandlerOutcome {
        switch POSIX.openDirectory(rootPath) {
        case .success(let fd):
            POSIX.close(fd)
            return .passed
        case .failure(let error):
            guard configuration.unavailableRoot == .pass else {
                throw LocalFileHandlerError.rootUnavailable(errno: error.code)
            }
            return .passed
        }
    }
}
