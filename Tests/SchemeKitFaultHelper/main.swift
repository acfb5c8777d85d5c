// SchemeKitFaultHelper: a process the tests start, then kill at arbitrary moments, to check that
// SchemeKit's stores survive crashes. Not a product. Each mode lives in its own file.
//
// Usage: SchemeKitFaultHelper <mode> <arguments…>
//   cache-write <directory> [entries] [max-bytes]          see CacheWriter.swift
//   write-through <origin> <directory> <query> [files]     see WriteThroughWriter.swift

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

switch arguments.first {
case "cache-write":
    exit(CacheWriter.run(Array(arguments.dropFirst())))
case "write-through":
    exit(await WriteThroughWriter.run(Array(arguments.dropFirst())))
default:
    FileHandle.standardError.write(
        Data("usage: SchemeKitFaultHelper cache-write|write-through <arguments…>\n".utf8))
    exit(64)
}
