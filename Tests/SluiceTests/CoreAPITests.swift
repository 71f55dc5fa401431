import Sluice
import SluiceTesting
import Testing

/// `Cancellable.store(in:)` for types other than AnyCancellable. Combine declares `store(in:)`
/// on AnyCancellable only; Sluice also offers it on every Cancellable, erasing it first.
@Suite("Cancellable.store(in:) for a cancellable that is not an AnyCancellable")
struct CancellableStoreTests {
    /// A sink subscribed to a fresh controllable publisher, and that publisher's subscription.
    private func subscribedSink() -> (Subscribers.Sink<Int, Never>, ControllableSubscription<Int, Never>) {
        let publisher = ControllablePublisher<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        publisher.subscribe(sink)
        return (sink, publisher.subscriptions[0])
    }

    @Test("A sink stored in a set is kept uncancelled, and cancelled when the set lets it go")
    func storeInSet() {
        let (sink, subscription) = subscribedSink()
        var set = Set<AnyCancellable>()
        sink.store(in: &set)
        #expect(set.count == 1)
        #expect(subscription.cancelCount == 0)
        set.removeAll()
        #expect(subscription.cancelCount == 1)
    }

    @Test("A sink stored in an array is appended erased, and cancelled when the array lets it go")
    func storeInRangeReplaceableCollection() {
        let (sink, subscription) = subscribedSink()
        var bag: [AnyCancellable] = []
        sink.store(in: &bag)
        #expect(bag.count == 1)
        #expect(subscription.cancelCount == 0)
        bag.removeAll()
        #expect(subscription.cancelCount == 1)
    }

    @Test("An AnyCancellable stores itself, not a wrapper")
    func anyCancellableStoresItself() {
        let cancellable = AnyCancellable {}
        var bag: [AnyCancellable] = []
        var set = Set<AnyCancellable>()
        cancellable.store(in: &bag)
        cancellable.store(in: &set)
        #expect(bag[0] === cancellable)
        #expect(set.first === cancellable)
    }
}

@Suite("Void conveniences: Subject.send() and Subscriber.receive()")
struct VoidConvenienceTests {
    @Test("send() on a Void subject delivers one value per call")
    func subjectSendVoid() {
        let subject = PassthroughSubject<Void, Never>()
        let recorder = RecordingSubscriber<Void, Never>()
        subject.subscribe(recorder)
        subject.send()
        subject.send()
        #expect(recorder.values.count == 2)
        #expect(recorder.violations.isEmpty)
        subject.send(completion: .finished)  // the subject and the recorder hold each other until then
    }

    @Test("send() on a Void CurrentValueSubject delivers a value after the current one")
    func currentValueSubjectSendVoid() {
        let subject = CurrentValueSubject<Void, Never>(())
        let recorder = RecordingSubscriber<Void, Never>()
        subject.subscribe(recorder)
        subject.send()
        #expect(recorder.values.count == 2)
        subject.send(completion: .finished)  // the subject and the recorder hold each other until then
    }

    @Test("receive() on a Void subscriber delivers a value and returns the subscriber's demand")
    func subscriberReceiveVoid() {
        let received = Locked(0)
        let subscriber = AnySubscriber<Void, Never>(
            receiveSubscription: nil,
            receiveValue: { received.withLock { $0 += 1 }; return .max(2) },
            receiveCompletion: nil)
        #expect(subscriber.receive() == .max(2))
        #expect(received.withLock { $0 } == 1)
    }
}

@Suite("CombineIdentifier")
struct CombineIdentifierTests {
    @Test("init() makes a new identifier each time")
    func initIsUnique() {
        let identifiers = (0..<1_000).map { _ in CombineIdentifier() }
        #expect(Set(identifiers).count == 1_000)
    }

    @Test("init(_:) is equal for the same object and differs for different objects and from init()")
    func initFromObject() {
        let a = AnyCancellable {}
        let b = AnyCancellable {}
        #expect(CombineIdentifier(a) == CombineIdentifier(a))
        #expect(CombineIdentifier(a) != CombineIdentifier(b))
        #expect(CombineIdentifier(a) != CombineIdentifier())
        #expect(a.combineIdentifier == CombineIdentifier(a))
    }

    @Test("description is the identifier in hexadecimal with 0x, as Combine prints it; for an object, its address")
    func description() {
        let object = AnyCancellable {}
        let address = UInt(bitPattern: ObjectIdentifier(object))
        #expect(CombineIdentifier(object).description == "0x" + String(address, radix: 16))
        let fresh = CombineIdentifier().description
        #expect(fresh.hasPrefix("0x"))
        #expect(UInt64(fresh.dropFirst(2), radix: 16) != nil)
        #expect(fresh != CombineIdentifier().description)
    }
}

@Suite("What print() and debuggers show: description and customMirror")
struct DescriptionTests {
    @Test("Empty's subscription describes itself as \"Empty\" with no children, as Combine's does")
    func emptySubscription() throws {
        let recorder = RecordingSubscriber<Int, Never>()
        Empty<Int, Never>().subscribe(recorder)
        let subscription = try #require(recorder.subscription)
        #expect(String(describing: subscription) == "Empty")
        #expect(Mirror(reflecting: subscription).children.isEmpty)
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Empty")
    }

    @Test("A Create subscription describes itself as \"Create\" and mirrors its outstanding demand")
    func createSubscription() throws {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
        Publishers.Emitting<Int, Never> { _ in }.subscribe(recorder)
        let subscription = try #require(recorder.subscription)
        #expect(String(describing: subscription) == "Emitting")
        let children = Mirror(reflecting: subscription).children.map { ($0.label, $0.value as? Subscribers.Demand) }
        #expect(children.count == 1)
        #expect(children.first?.0 == "demand")
        #expect(children.first?.1 == .max(3))
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Emitting")
        recorder.cancel()  // the subscription lets the recorder go
    }

    @Test("A Sink describes itself as \"Sink\" with no children, as Combine's does")
    func sink() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.description == "Sink")
        #expect(String(describing: sink) == "Sink")
        #expect(Mirror(reflecting: sink).children.isEmpty)
        #expect(sink.playgroundDescription as? String == "Sink")
    }
}
