import Sluice
import SluiceTesting
import Testing

@Suite(.timeLimit(.minutes(12))) struct ValuesVariantsTests {
    /// Iterates `sequence` over `source` in a task; sends 1 when demand arrives, and while the
    /// loop body handles 1 the source sends 2, 3 and 4 and finishes.
    private func valuesSentDuringTheLoopBody(
        _ source: HotSource, _ sequence: AsyncPublisher<HotSource>
    ) async -> [Int] {
        let loop = Task {
            var received: [Int] = []
            for await value in sequence {
                received.append(value)
                if value == 1 {
                    for more in 2...4 { source.send(more) }
                    source.finish()
                }
            }
            return received
        }
        await source.waitForDemand()
        source.send(1)
        return await loop.value
    }

    @Test func byDefaultValuesSentWhileTheLoopBodyRunsAreLost() async {
        let source = HotSource()
        #expect(await valuesSentDuringTheLoopBody(source, source.values) == [1])
        #expect(source.requests == [.max(1)])
    }

    @Test func prefetchKeepsValuesSentDuringTheBodyWithinItsLimit() async {
        let source = HotSource()
        #expect(await valuesSentDuringTheLoopBody(source, source.values(prefetch: 2)) == [1, 2, 3])
        // 2 at first, then 1 more when 1 was taken: returned from receive(_:) if next() had
        // suspended when 1 came, else requested by next().
        #expect(source.requests == [.max(2)] || source.requests == [.max(2), .max(1)])
    }

    @Test func unboundedBufferingKeepsEverything() async {
        let source = HotSource()
        #expect(await valuesSentDuringTheLoopBody(source, source.values(bufferingPolicy: .unbounded)) == [1, 2, 3, 4])
        #expect(source.requests == [.unlimited])
    }

    @Test func bufferingOldestKeepsTheFirstNAndDropsLaterOnes() async {
        let source = HotSource()
        #expect(await valuesSentDuringTheLoopBody(source, source.values(bufferingPolicy: .bufferingOldest(2))) == [1, 2, 3])
    }

    @Test func bufferingNewestKeepsTheLastNAndDropsOlderOnes() async {
        let source = HotSource()
        #expect(await valuesSentDuringTheLoopBody(source, source.values(bufferingPolicy: .bufferingNewest(2))) == [1, 3, 4])
    }

    @Test func bufferingNewestZeroKeepsOnlyWhatAWaitingNextTakes() async {
        let source = HotSource()
        #expect(await valuesSentDuringTheLoopBody(source, source.values(bufferingPolicy: .bufferingNewest(0))) == [1])
    }

    @Test func prefetchRequestsNAtFirstThenTopsUpInBatchesAtHalf() async {
        let publisher = ControllablePublisher<Int, Never>()
        var iterator = publisher.values(prefetch: 4).makeAsyncIterator()
        let subscription = Shared(publisher.subscriptions[0])
        #expect(subscription.value.requests.isEmpty)
        let driver = Task {
            await subscription.value.waitForCalls { $0.count == 1 }
            for value in 1...4 { subscription.value.send(value) }
        }
        #expect(await iterator.next() == 1)
        await driver.value
        #expect(subscription.value.requests == [.max(4)], "3 of 4 left: no top-up yet")
        #expect(await iterator.next() == 2)
        #expect(subscription.value.requests == [.max(4), .max(2)], "2 of 4 left: top up by 2")
        #expect(await iterator.next() == 3)
        #expect(subscription.value.requests == [.max(4), .max(2)], "1 buffered + 2 requested: no top-up")
        #expect(await iterator.next() == 4)
        #expect(subscription.value.requests == [.max(4), .max(2), .max(2)], "0 buffered + 2 requested: top up by 2")
    }

    @Test(.exitTest) func prefetchTrapsWhenTheUpstreamSendsBeyondItsLimit() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let publisher = ControllablePublisher<Int, Never>()
            var iterator = publisher.values(prefetch: 2).makeAsyncIterator()
            let subscription = Shared(publisher.subscriptions[0])
            let driver = Task {
                await subscription.value.waitForCalls { $0.count == 1 }
                // 4 is beyond the limit whether or not `next()` had suspended when 1 came.
                for value in 1...4 { subscription.value.send(value) }
            }
            _ = await iterator.next()
            await driver.value
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("beyond the demand it requested (rule 2)"))
        }
    }

    @Test func bufferedElementsAreDeliveredBeforeTheCompletion() async throws {
        let publisher = ControllablePublisher<Int, TestError>()
        var iterator = publisher.values(bufferingPolicy: .unbounded).makeAsyncIterator()
        let subscription = Shared(publisher.subscriptions[0])
        let driver = Task {
            await subscription.value.waitForCalls { $0.count == 1 }
            for value in 1...3 { subscription.value.send(value) }
            subscription.value.send(completion: .failure(TestError(code: 9)))
        }
        #expect(try await iterator.next() == 1)
        await driver.value
        #expect(try await iterator.next() == 2)
        #expect(try await iterator.next() == 3)
        await #expect(throws: TestError(code: 9)) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    /// Prefetch takes what is buffered in one locked step and serves it from a batch: the
    /// completion still comes after every element, and the level still tops up at half.
    @Test func prefetchServesATakenBatchInOrderThenTheCompletion() async throws {
        let publisher = ControllablePublisher<Int, TestError>()
        var iterator = publisher.values(prefetch: 8).makeAsyncIterator()
        let subscription = Shared(publisher.subscriptions[0])
        let driver = Task {
            await subscription.value.waitForCalls { $0.count == 1 }
            for value in 1...8 { subscription.value.send(value) }
        }
        #expect(try await iterator.next() == 1)
        await driver.value
        // 2...8 are buffered; the next next() takes them all (7 held, level 7: no top-up).
        #expect(try await iterator.next() == 2)
        #expect(subscription.value.requests == [.max(8)])
        subscription.value.send(completion: .failure(TestError(code: 3)))
        // Served from the batch; the level reaches 4 (half) after 5, and the top-up is
        // refused by the completed upstream's phase, so nothing more is requested.
        for expected in 3...8 { #expect(try await iterator.next() == expected) }
        #expect(subscription.value.requests == [.max(8)])
        await #expect(throws: TestError(code: 3)) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func prefetchFromATakenBatchTopsUpWhenHalfTheLimitIsLeft() async {
        let publisher = ControllablePublisher<Int, Never>()
        var iterator = publisher.values(prefetch: 8).makeAsyncIterator()
        let subscription = Shared(publisher.subscriptions[0])
        let driver = Task {
            await subscription.value.waitForCalls { $0.count == 1 }
            for value in 1...8 { subscription.value.send(value) }
        }
        #expect(await iterator.next() == 1)
        await driver.value
        #expect(await iterator.next() == 2)  // takes 2...8: 6 held, level 6
        #expect(await iterator.next() == 3)  // level 5
        #expect(subscription.value.requests == [.max(8)])
        #expect(await iterator.next() == 4)  // level 4: half, top up by 4
        #expect(subscription.value.requests == [.max(8), .max(4)])
        #expect(await iterator.next() == 5)  // 3 held + 4 requested: 7
        #expect(subscription.value.requests == [.max(8), .max(4)])
    }

    @Test func aCancelledTaskHoldingAPrefetchedBatchGetsNilAndCancelsTheUpstream() async {
        let publisher = ControllablePublisher<Int, Never>()
        let made = Shared(publisher.values(prefetch: 8).makeAsyncIterator())
        let upstream = publisher.subscriptions[0]
        let batchTaken = Gate()
        let cancelled = Gate()
        let loop = Task {
            var iterator = made.value
            let first = await iterator.next()
            let second = await iterator.next()  // takes the batch 2...8
            batchTaken.open()
            await cancelled.waitIgnoringCancellation(for: "the test to cancel the loop")
            return [first, second, await iterator.next(), await iterator.next()]
        }
        await upstream.waitForCalls { $0.count == 1 }
        for value in 1...8 { upstream.send(value) }
        await batchTaken.wait()
        loop.cancel()
        cancelled.open()
        #expect(await loop.value == [1, 2, nil, nil], "the batch still held 3...8, but the task was cancelled")
        #expect(upstream.cancelCount == 1)
    }

    @Test(.exitTest) func aPrefetchOfZeroTrapsNamingTheRule() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).values(prefetch: 0)
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("values(prefetch:) takes a positive count"))
            #expect(message.contains("(rule 2)"))
        }
    }

    @Test(.exitTest) func aNegativeBufferingLimitTrapsNamingTheRule() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).values(bufferingPolicy: .bufferingNewest(-1))
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("limit must not be negative (rule 2)"))
        }
    }
}
