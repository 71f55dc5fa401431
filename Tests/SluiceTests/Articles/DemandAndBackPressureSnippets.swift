import Sluice
import Testing

// The examples of DemandAndBackPressure.md, compiled and run; `.ci/check-snippets.sh` checks
// that the article shows exactly the lines between each snippet's markers.

// snippet DemandTaker begin
final class Taker: Subscriber {
    typealias Input = Int
    typealias Failure = Never

    private let initial: Subscribers.Demand
    private let perValue: Subscribers.Demand
    private(set) var subscription: (any Subscription)?
    private(set) var received: [Int] = []
    private(set) var finished = false

    init(initial: Subscribers.Demand, perValue: Subscribers.Demand = .none) {
        self.initial = initial
        self.perValue = perValue
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(initial)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        received.append(input)
        return perValue
    }

    func receive(completion: Subscribers.Completion<Never>) {
        finished = true
    }
}
// snippet DemandTaker end

@Suite(.timeLimit(.minutes(12))) struct DemandAndBackPressureSnippets {
    @Test func coldPublisherWaitsForDemand() {
        // snippet DemandCold begin
        let taker = Taker(initial: .max(2))
        (1...5).publisher.subscribe(taker)
        // taker.received == [1, 2]: the sequence waits for more demand
        #expect(taker.received == [1, 2])
        taker.subscription?.request(.max(2))
        // taker.received == [1, 2, 3, 4]
        #expect(taker.received == [1, 2, 3, 4])
        #expect(!taker.finished)
        taker.subscription?.request(.max(1))
        // taker.received == [1, 2, 3, 4, 5], taker.finished
        // snippet DemandCold end
        #expect(taker.received == [1, 2, 3, 4, 5])
        #expect(taker.finished)
    }

    @Test func demandReturnedFromReceive() {
        // snippet DemandOneAtATime begin
        let oneByOne = Taker(initial: .max(1), perValue: .max(1))
        (1...3).publisher.subscribe(oneByOne)
        // oneByOne.received == [1, 2, 3], oneByOne.finished
        // snippet DemandOneAtATime end
        #expect(oneByOne.received == [1, 2, 3])
        #expect(oneByOne.finished)
        let none = Taker(initial: .max(1))
        (1...3).publisher.subscribe(none)
        #expect(none.received == [1])
        none.subscription?.cancel()  // the subscription and the subscriber keep each other until then
    }

    @Test func subjectDropsWhatIsNotAskedFor() {
        // snippet DemandHotDrops begin
        let subject = PassthroughSubject<Int, Never>()
        let taker = Taker(initial: .max(1))
        subject.subscribe(taker)
        subject.send(1)                          // delivered: the demand was 1
        subject.send(2)                          // no demand left: dropped
        taker.subscription?.request(.max(1))
        subject.send(3)                          // delivered
        // taker.received == [1, 3]
        // snippet DemandHotDrops end
        #expect(taker.received == [1, 3])
        taker.subscription?.cancel()  // the subject and the subscriber keep each other until then
    }

    @Test func bufferingNewestKeepsTheLatest() async {
        // snippet DemandBufferingNewest begin
        let progress = CurrentValueSubject<Int, Never>(0)
        var seen: [Int] = []
        for await value in progress.values(bufferingPolicy: .bufferingNewest(2)) {
            seen.append(value)
            if value == 0 {
                // While the loop body runs, three values arrive; the newest two are kept.
                progress.send(1)
                progress.send(2)
                progress.send(3)
            }
            if value == 3 { break }
        }
        // seen == [0, 2, 3]
        // snippet DemandBufferingNewest end
        #expect(seen == [0, 2, 3])
    }

    @Test func prefetchRequestsInBatches() async {
        // snippet DemandPrefetch begin
        var requests: [Subscribers.Demand] = []
        var total = 0
        let rows = (1...8).publisher.handleEvents(receiveRequest: { requests.append($0) })
        for await row in rows.values(prefetch: 4) {
            total += row
        }
        // requests == [.max(4), .max(2), .max(2)], total == 36
        // snippet DemandPrefetch end
        #expect(requests == [.max(4), .max(2), .max(2)])
        #expect(total == 36)
    }
}
