import Testing

@testable import SchemeKit

struct TaskStateMachineTests {
    @Test func normalResponseDeliversHeadBodyFinishInOrder() {
        var machine = TaskStateMachine()
        #expect(machine.start() == .run)
        #expect(machine.accept(.head) == .deliver)
        #expect(machine.deliver(.head) == .send)
        #expect(machine.accept(.body) == .deliver)
        #expect(machine.deliver(.body) == .send)
        #expect(machine.accept(.finish) == .deliver)
        #expect(machine.deliver(.finish) == .sendTerminal)
        #expect(machine.stop() == .ignore)
        #expect(machine.handlerReturned(.handled) == TaskStateMachine.CompletionAction.none)
    }

    @Test func misuseIsRejectedWithTypedErrors() {
        var machine = TaskStateMachine()
        _ = machine.start()
        #expect(machine.accept(.body) == .misuse(.bodyBeforeHead))
        #expect(machine.accept(.finish) == .misuse(.finishBeforeHead))
        #expect(machine.accept(.head) == .deliver)
        #expect(machine.accept(.head) == .misuse(.duplicateHead))
        #expect(machine.accept(.finish) == .deliver)
        #expect(machine.accept(.finish) == .misuse(.alreadyCompleted))
        #expect(machine.accept(.body) == .misuse(.alreadyCompleted))
        #expect(machine.accept(.fail) == .misuse(.alreadyCompleted))
    }

    @Test func stopRejectsLaterWritesAndDropsAcceptedOnes() {
        var machine = TaskStateMachine()
        _ = machine.start()
        #expect(machine.accept(.head) == .deliver)
        #expect(machine.accept(.finish) == .deliver)
        // The finish was accepted but has not reached the engine when it stops.
        #expect(machine.stop() == .cancel)
        #expect(machine.deliver(.head) == .drop)
        #expect(machine.deliver(.finish) == .drop)
        #expect(machine.accept(.body) == .rejectStopped)
        #expect(machine.stop() == .ignore)
        #expect(machine.handlerReturned(.handled) == .none)
    }

    @Test func stopBeforeStartSkipsTheHandler() {
        var machine = TaskStateMachine()
        #expect(machine.stop() == .cancel)
        #expect(machine.start() == .skip)
    }

    @Test func startRunsOnce() {
        var machine = TaskStateMachine()
        #expect(machine.start() == .run)
        #expect(machine.start() == .alreadyStarted)
        #expect(machine.stop() == .cancel)
        #expect(machine.start() == .alreadyStarted)
    }

    @Test(arguments: [
        (false, TaskStateMachine.Outcome.passed, TaskStateMachine.CompletionAction.notFound),
        (false, .handled, .fail),
        (false, .threw, .fail),
        (true, .handled, .finish),
        (true, .passed, .finish),
        (true, .threw, .fail),
    ])
    func handlerReturningWithoutFinishingIsCompletedForIt(
        headWritten: Bool, outcome: TaskStateMachine.Outcome, expected: TaskStateMachine.CompletionAction
    ) {
        var machine = TaskStateMachine()
        _ = machine.start()
        if headWritten { _ = machine.accept(.head) }
        #expect(machine.handlerReturned(outcome) == expected)
    }
}
