import Sluice
import SluiceTesting
import Testing

private final class Model {
    var count = 0
    var history: [Int] = []
    var value: Int {
        get { count }
        set { count = newValue; history.append(newValue) }
    }
}

@Suite struct AssignTests {
    @Test func assignRequestsUnlimitedAndWritesEveryValue() {
        let model = Model()
        let publisher = ControllablePublisher<Int, Never>()
        let cancellable = publisher.assign(to: \.value, on: model)
        let subscription = publisher.subscriptions[0]
        #expect(subscription.requests == [.unlimited])
        _ = subscription.send(1)
        _ = subscription.send(2)
        #expect(model.history == [1, 2])
        cancellable.cancel()
    }

    @Test func assignHoldsTheObjectUntilCompletionThenReleasesIt() {
        let publisher = ControllablePublisher<Int, Never>()
        weak var weakModel: Model?
        let assign: Subscribers.Assign<Model, Int>
        do {
            let model = Model()
            weakModel = model
            assign = Subscribers.Assign(object: model, keyPath: \.value)
        }
        publisher.subscribe(assign)
        #expect(weakModel != nil)
        #expect(assign.object === weakModel)
        publisher.subscriptions[0].send(completion: .finished)
        #expect(weakModel == nil)
        #expect(assign.object == nil)
    }

    @Test func cancelReleasesTheObjectCancelsUpstreamOnceAndStopsWrites() {
        let publisher = ControllablePublisher<Int, Never>()
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \.value)
        publisher.subscribe(assign)
        assign.cancel()
        assign.cancel()
        let subscription = publisher.subscriptions[0]
        #expect(subscription.cancelCount == 1)
        _ = subscription.send(5)
        #expect(model.history.isEmpty)
        #expect(assign.object == nil)
    }

    @Test func secondSubscriptionIsCancelled() {
        let first = ControllablePublisher<Int, Never>()
        let second = ControllablePublisher<Int, Never>()
        let assign = Subscribers.Assign(object: Model(), keyPath: \.value)
        first.subscribe(assign)
        second.subscribe(assign)
        #expect(second.subscriptions[0].cancelCount == 1)
        #expect(second.subscriptions[0].requests.isEmpty)
        #expect(first.subscriptions[0].cancelCount == 0)
        assign.cancel()  // the first subscription and the assign hold each other until then
    }

    @Test func assignFromJustAndDescription() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \.value)
        Just(9).subscribe(assign)
        #expect(model.count == 9)
        #expect(assign.description == "Assign Model.")
        let children = Mirror(reflecting: assign).children
        #expect(children.map(\.label) == ["object", "keyPath", "status"])
        #expect(children.first { $0.label == "status" }?.value as? String == "terminal", "Just finished")
    }
}

/// A subscriber written the way Combine users write them: it keeps its subscription and
/// asks for more later.
private final class LaterRequester: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var subscription: (any Subscription)?
    var received: [Int] = []
    var completion: Subscribers.Completion<Never>?

    func receive(subscription: any Subscription) {
        self.subscription = subscription
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        received.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        self.completion = completion
        subscription = nil
    }

    func requestThree() { subscription?.request(.max(3)) }
}

@Suite struct CustomSubscriberTests {
    @Test func customSubscriberStoringItsSubscriptionGetsThreeValuesPerLaterRequest() {
        let subscriber = LaterRequester()
        Record<Int, Never>(output: Array(1...7), completion: .finished).subscribe(subscriber)
        #expect(subscriber.received.isEmpty)
        subscriber.requestThree()
        #expect(subscriber.received == [1, 2, 3])
        subscriber.requestThree()
        #expect(subscriber.received == [1, 2, 3, 4, 5, 6])
        #expect(subscriber.completion == nil)
        subscriber.requestThree()
        #expect(subscriber.received == Array(1...7))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.subscription == nil)
    }

    @Test func customSubscriberOnJustGetsOneValue() {
        let subscriber = LaterRequester()
        Just(1).subscribe(subscriber)
        #expect(subscriber.received.isEmpty)
        subscriber.requestThree()
        #expect(subscriber.received == [1])
        #expect(subscriber.completion == .finished)
    }
}
