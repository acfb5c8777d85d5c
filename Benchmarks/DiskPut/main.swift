// Disk-tier `put` throughput with concurrent writers: compiled with the disk tier's sources by
// `Benchmarks/disk-put.sh` (no package build), so two revisions are measured side by side.
import Foundation

let arguments = CommandLine.arguments
let writers = arguments.count > 1 ? Int(arguments[1]) ?? 8 : 8
let putsPerWriter = arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200
let valueSize = arguments.count > 3 ? Int(arguments[3]) ?? 16 * 1024 : 16 * 1024
let keysPerWriter = arguments.count > 4 ? Int(arguments[4]) ?? 100 : 100

let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("schemekit-disk-put-\(ProcessInfo.processInfo.processIdentifier)")
defer { try? FileManager.default.removeItem(at: directory) }
let backend = try DiskStorage.Backend(
    config: .init(directory: directory, sizeLimit: 1 << 30, expiration: .never), clock: ContinuousClock())
let value = Data((0..<valueSize).map { UInt8(truncatingIfNeeded: $0 &* 31) })
// Fill the index first: its size is what the old write path paid for on every put.
for writer in 0..<writers {
    for key in 0..<keysPerWriter { try backend.store(value, forKey: "w\(writer)-k\(key)") }
}

let group = DispatchGroup()
let start = DispatchTime.now()
for writer in 0..<writers {
    group.enter()
    Thread {
        for put in 0..<putsPerWriter {
            try! backend.store(value, forKey: "w\(writer)-k\(put % keysPerWriter)")
        }
        group.leave()
    }.start()
}
group.wait()
let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
let puts = writers * putsPerWriter
print(
    String(
        format: "writers=%d puts=%d value=%d B entries=%d: %.2f s, %.0f puts/s, %.2f MB/s",
        writers, puts, valueSize, writers * keysPerWriter, seconds, Double(puts) / seconds,
        Double(puts * valueSize) / seconds / 1e6))
