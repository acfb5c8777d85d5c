import Foundation
import GuardTestFixtures
import SchemeKit
import SchemeKitTesting
import Testing

/// The sinks must catch what a broken lifecycle would send an engine; here they are fed directly.
struct RecordingSinkTests {
    @Test func aCorrectSequenceHasNoViolations() {
        let sink = RecordingSink()
        sink.receive(SchemeResponse())
        sink.receive(SchemeBody(Data("ab".utf8)))
        sink.finish()
        #expect(sink.violations.isEmpty)
        #expect(sink.terminalCount == 1)
        #expect(sink.chunks == [Data("ab".utf8)])
    }

    @Test(arguments: [
        ("data before head", ["data before the response head"]),
        ("second head", ["second response head"]),
        ("after finish", ["data(1) after a terminal event"]),
        ("after stop", ["head(200) after stop"]),
        ("empty chunk", ["empty data chunk"]),
        ("finish before head", ["finish before the response head"]),
    ])
    func violationsAreReported(scenario: String, expected: [String]) {
        let sink = RecordingSink()
        let counting = CountingSink()
        func head() { sink.receive(SchemeResponse()); counting.receive(SchemeResponse()) }
        func data(_ bytes: Int) {
            sink.receive(SchemeBody(Data(count: bytes))); counting.receive(SchemeBody(Data(count: bytes)))
        }
        func finish() { sink.finish(); counting.finish() }
        switch scenario {
        case "data before head": data(1)
        case "second head": head(); head()
        case "after finish": head(); finish(); data(1)
        case "after stop":
            sink.markStopped()
            counting.markStopped()
            head()
        case "empty chunk": head(); data(0)
        default: finish()
        }
        #expect(sink.violations == expected)
        #expect(counting.violations == 1)
        #expect(counting.callsAfterStop == (scenario == "after stop" ? 1 : 0))
    }

    @Test func waitForCompletionIsBounded() async {
        let sink = RecordingSink()
        #expect(await sink.waitForCompletion(timeout: .milliseconds(10)) == false)
        Task {
            sink.receive(SchemeResponse())
            sink.finish()
        }
        #expect(await sink.waitForCompletion(timeout: TestTiming.scaled(.seconds(30))))
        let stopped = RecordingSink()
        stopped.markStopped()
        await stopped.waitForCompletion()
        #expect(stopped.isStopped)
    }

    @Test func countingSinkCounts() {
        let sink = CountingSink()
        sink.receive(SchemeResponse())
        sink.receive(SchemeBody(Data(count: 3)))
        sink.receive(SchemeBody(Data(count: 4)))
        sink.fail(InjectedError("x"))
        #expect((sink.heads, sink.bytes, sink.finishes, sink.failures, sink.terminalCount) == (1, 7, 0, 1, 1))
        #expect(sink.violations == 0)
        #expect(!sink.isStopped)
    }
}
