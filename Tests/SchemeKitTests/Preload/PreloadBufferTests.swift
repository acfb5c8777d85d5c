import Foundation
import Testing

@testable import SchemeKit

struct PreloadBufferTests {
    func chunks(_ update: PreloadBuffer.Update?) -> [Data]? {
        if case .chunks(let chunks) = update { return chunks }
        return nil
    }

    @Test func aLateCursorGetsEverythingReceivedSoFarThenTheRest() throws {
        var buffer = PreloadBuffer(preloadHold: true)
        buffer.receive(head: SchemeResponse(status: .ok))
        _ = buffer.receive(Data("ab".utf8))
        _ = buffer.receive(Data("cd".utf8))
        let (id, claimed) = try #require(buffer.attach() as (id: Int, claimedPreload: Bool)?)
        #expect(claimed)
        #expect(!buffer.preloadHold)
        guard case .head = buffer.next(for: id, headSent: false).update else {
            Issue.record("expected the head")
            return
        }
        #expect(chunks(buffer.next(for: id, headSent: true).update) == [Data("ab".utf8), Data("cd".utf8)])
        #expect(buffer.next(for: id, headSent: true).update == nil)
        _ = buffer.receive(Data("ef".utf8))
        #expect(chunks(buffer.next(for: id, headSent: true).update) == [Data("ef".utf8)])
        buffer.complete()
        guard case .finished = buffer.next(for: id, headSent: true).update else {
            Issue.record("expected the finish")
            return
        }
    }

    @Test func onlyTheFirstAttachClaimsThePreload() throws {
        var buffer = PreloadBuffer(preloadHold: true)
        let first = buffer.attach()
        let second = buffer.attach()
        #expect(first?.claimedPreload == true)
        #expect(second?.claimedPreload == false)
        #expect(buffer.holders == 2)
    }

    @Test func upstreamIsCancelledOnlyWhenTheLastHolderLeaves() throws {
        var buffer = PreloadBuffer(preloadHold: false)
        let first = try #require(buffer.attach() as (id: Int, claimedPreload: Bool)?).id
        let second = try #require(buffer.attach() as (id: Int, claimedPreload: Bool)?).id
        #expect(buffer.detach(first).action == .none)
        #expect(!buffer.cancelled)
        #expect(buffer.detach(second).action == .cancelUpstream)
        #expect(buffer.cancelled)
        let late = buffer.attach()
        #expect(late == nil)
    }

    @Test func aPreloadHoldKeepsTheFetchAliveWithoutTasks() {
        var buffer = PreloadBuffer(preloadHold: true)
        _ = buffer.receive(Data("x".utf8))
        #expect(buffer.holders == 1)
        let (freed, action) = buffer.releasePreload()
        #expect(action == .cancelUpstream)
        #expect(freed == 1)
        #expect(buffer.bufferedBytes == 0)
    }

    @Test func aCompleteFetchIsNotCancelledWhenReleased() throws {
        var buffer = PreloadBuffer(preloadHold: false)
        let id = try #require(buffer.attach() as (id: Int, claimedPreload: Bool)?).id
        buffer.complete()
        #expect(buffer.detach(id).action == .none)
    }

    @Test func closedFetchesDropChunksEveryCursorHasRead() throws {
        var buffer = PreloadBuffer(preloadHold: false)
        buffer.receive(head: SchemeResponse(status: .ok))
        let fast = try #require(buffer.attach() as (id: Int, claimedPreload: Bool)?).id
        let slow = try #require(buffer.attach() as (id: Int, claimedPreload: Bool)?).id
        _ = buffer.receive(Data(count: 10))
        _ = buffer.receive(Data(count: 20))
        let freedOnClose = buffer.close()
        #expect(freedOnClose == 0)
        _ = buffer.next(for: fast, headSent: true)
        #expect(buffer.bufferedBytes == 30, "the slow cursor still needs both chunks")
        let (_, freed) = buffer.next(for: slow, headSent: true)
        #expect(freed == 30)
        #expect(buffer.bufferedBytes == 0)
    }

    @Test func aFailureBeforeTheHeadReachesEveryCursor() throws {
        var buffer = PreloadBuffer(preloadHold: false)
        let id = try #require(buffer.attach() as (id: Int, claimedPreload: Bool)?).id
        buffer.fail(SchemeHTTPClientError(.connectionFailed))
        guard case .failed(let error) = buffer.next(for: id, headSent: false).update else {
            Issue.record("expected a failure")
            return
        }
        #expect((error as? SchemeHTTPClientError)?.kind == .connectionFailed)
    }
}
