import SchemeKit
import Testing

/// The feed every engine adapter publishes its request records on: bounded per reader, never
/// holding a request up, and a render's collector sees exactly the records of its own span.
struct SchemeRequestRecordFeedTests {
    private func record(_ path: String) -> SchemeRequestRecord {
        SchemeRequestRecord(url: "app://localhost\(path)", registryURL: "app://localhost\(path)", method: "GET")
    }

    @Test func aReaderThatFallsBehindKeepsTheNewestAndTheDropsAreCounted() async {
        let feed = SchemeRequestRecordFeed()
        let records = feed.subscribe(bufferLimit: 2)
        #expect(feed.publish(record("/1")) == 0)
        #expect(feed.publish(record("/2")) == 0)
        #expect(feed.publish(record("/3")) == 1, "the third record pushes out the first")
        feed.finish()
        var seen: [String] = []
        for await record in records { seen.append(record.registryURL) }
        #expect(seen == ["app://localhost/2", "app://localhost/3"])
    }

    @Test func aCollectorSeesWhatWasPublishedWhileItCollected() {
        let feed = SchemeRequestRecordFeed()
        feed.publish(record("/before"))
        let collector = feed.startCollecting()
        var failed = record("/failed")
        failed.fail(SchemeRequestRecordFeedTests.Failure())
        feed.publish(record("/during"))
        feed.publish(failed)
        let collected = feed.stopCollecting(collector)
        feed.publish(record("/after"))
        #expect(collected.map(\.registryURL) == ["app://localhost/during", "app://localhost/failed"])
        #expect(collected[0].outcome == .answered && collected[0].error == nil)
        #expect(collected[1].outcome == .failed && collected[1].error is Failure)
        #expect(collector.collected.count == 2, "a stopped collector collects no more")
    }

    @Test func aPublishedRecordCarriesItsDuration() throws {
        let feed = SchemeRequestRecordFeed()
        let collector = feed.startCollecting()
        var started = record("/slow")
        // A request handed over 20 ms ago, without waiting 20 ms.
        started.started = .now - .milliseconds(20)
        let before = ContinuousClock.now
        feed.publish(started)
        let after = ContinuousClock.now
        let published = try #require(feed.stopCollecting(collector).first)
        // Measured from the record's start to the moment it was published.
        #expect(published.duration >= before - started.started)
        #expect(published.duration <= after - started.started)
        #expect(published.duration >= .milliseconds(20))
        #expect(started.duration == .zero, "a record not yet published has no duration")
    }

    private struct Failure: Error {}
}
