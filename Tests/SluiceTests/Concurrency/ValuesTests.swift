import Sluice
import SluiceTesting
import Testing

@Suite(.timeLimit(.minutes(12))) struct ValuesTests {
    // MARK: Types and typed throws

    @Test func neverFailingPublisherIsIteratedWithoutTryAndYieldsEveryValueInOrder() async {
        var received: [Int] = []
        for await value in SyncRangePublisher(0..<5).values { received.append(value) }
        #expect(received == [0, 1, 2, 3, 4])
    }

    @Test func failingPublisherThrowsItsOwnErrorTypeToATypedCatch() async {
        let publisher = ControllablePublisher<Int, TestError>()
        let sequence: AsyncThrowingPublisher<ControllablePublisher<Int, TestError>> = publisher.values
        var iterator = sequence.makeAsyncIterator()
        let subscription = Shared(publisher.subscriptions[0])
        let driver = Task {
            await subscription.value.waitForCalls { $0.count == 1 }
            subscription.value.send(completion: .failure(TestError(code: 7)))
        }
        do throws(TestError) {
            _ = try await iterator.next()
            Issue.record("expected a failure")
        } catch {
            #expect(error == TestError(code: 7))
        }
        await driver.value
    }

    // MARK: Demand

    @Test func makingTheIteratorSubscribesButRequestsNothing() {
        let publisher = ControllablePublisher<Int, Never>()
        let iterator = publisher.values.makeAsyncIterator()
        #expect(publisher.subscriptions.count == 1)
        #expect(publisher.subscriptions[0].requests.isEmpty)
        withExtendedLifetime(iterator) {}
    }

    @Test func eachNextRequestsExactlyOneElementOnlyWhenItNeedsOne() async {
        let publisher = ControllablePublisher<Int, Never>()
        var iterator = publisher.values.makeAsyncIterator()
        let subscription = Shared(publisher.subscriptions[0])
        let driver = Task {
            for value in 1...3 {
                await subscription.value.waitForCalls { $0.count == value }
                #expect(subscription.value.send(value) == .none)
            }
            await subscription.value.waitForCalls { $0.count == 4 }
            subscription.value.send(completion: .finished)
        }
        var received: [Int] = []
        while let value = await iterator.next() {
            received.append(value)
            #expect(publisher.subscriptions[0].requests == Array(repeating: .max(1), count: value))
        }
        await driver.value
        #expect(received == [1, 2, 3])
        #expect(publisher.subscriptions[0].requests == [.max(1), .max(1), .max(1), .max(1)])
        #expect(publisher.subscriptions[0].cancelCount == 0)
    }

    @Test func synchronousUpstreamNeverSuspendsNextSoOtherMainActorWorkCannotInterleave() async {
        await MainActor.run {}
        await runOnMain()
    }

    @MainActor private func runOnMain() async {
        let flag = MainFlag()
        let other = Task { @MainActor in flag.set = true }
        var count = 0
        for await _ in SyncRangePublisher(0..<1_000).values {
            count += 1
            #expect(!flag.set, "next() suspended and let another main-actor task run")
        }
        #expect(count == 1_000)
        await other.value
    }

    @Test(.exitTest) func valueBeyondDemandTrapsNamingTheRule() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let publisher = ControllablePublisher<Int, Never>()
            let iterator = publisher.values.makeAsyncIterator()
            _ = publisher.subscriptions[0].send(1)
            withExtendedLifetime(iterator) {}
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("beyond the demand it requested (rule 2)"))
        }
    }

    // MARK: Completion

    @Test func afterFinishingNextReturnsNilForeverAndDoesNotCancel() async {
        var iterator = SyncRangePublisher(0..<1).values.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    @Test func aFailureIsThrownOnceThenNextReturnsNil() async throws {
        let publisher = ControllablePublisher<Int, TestError>()
        var iterator = publisher.values.makeAsyncIterator()
        let subscription = publisher.subscriptions[0]
        _ = iterator  // subscribe happened; complete before any next()
        subscription.send(completion: .failure(TestError(code: 1)))
        await #expect(throws: TestError(code: 1)) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
        #expect(subscription.cancelCount == 0)
        #expect(subscription.requests.isEmpty)
    }
}

@MainActor final class MainFlag {
    var set = false
}
