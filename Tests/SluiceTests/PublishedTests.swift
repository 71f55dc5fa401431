import Testing
import Sluice
import SluiceTesting

private final class Contact: ObservableObject {
    @Published var name: String
    @Published var age: Int
    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
}

private final class Employee: ObservableObject {
    @Published var title = "engineer"
    let contact = Contact(name: "Ann", age: 30)
}

private class Base: ObservableObject {
    @Published var base = 0
}

private final class Derived: Base {
    @Published var derived = 0
}

private final class Plain: ObservableObject {
    var count = 0
}

private final class Manual: ObservableObject {
    let objectWillChange = ObservableObjectPublisher()
    @Published var value = 0
}

private final class Fed: ObservableObject {
    @Published var latest = 0
    init(from upstream: some Publisher<Int, Never>) { upstream.assign(to: &$latest) }
}

@Suite("@Published and ObservableObject", .timeLimit(.minutes(12)))
struct PublishedTests {
    @Test("$property sends the current value, then each new value before it is stored")
    func projectedPublisher() {
        let contact = Contact(name: "John", age: 24)
        let seen = Locked<[String]>([])
        let cancellable = contact.$age.sink { [contact] new in
            seen.withLock { $0.append("\(new) (property: \(contact.age))") }
        }
        contact.age = 25
        contact.age += 1
        #expect(seen.withLock { $0 } == ["24 (property: 24)", "25 (property: 24)", "26 (property: 25)"])
        #expect(contact.age == 26)
        cancellable.cancel()
        contact.age = 99
        #expect(seen.withLock { $0 }.count == 3)
    }

    @Test("the subscriptions describe themselves as Combine's do: PublishedSubject and ObservableObjectPublisher")
    func subscriptionNames() {
        let contact = Contact(name: "John", age: 24)
        let published = RecordingSubscriber<Int, Never>(initialDemand: .none)
        contact.$age.subscribe(published)
        let willChange = RecordingSubscriber<Void, Never>(initialDemand: .none)
        contact.objectWillChange.subscribe(willChange)
        #expect(published.subscription.map { String(describing: $0) } == "PublishedSubject")
        #expect(willChange.subscription.map { String(describing: $0) } == "ObservableObjectPublisher")
        // A subject made directly keeps its own name.
        let subject = CurrentValueSubject<Int, Never>(0)
        let direct = RecordingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(direct)
        #expect(direct.subscription.map { String(describing: $0) } == "CurrentValueSubject")
        published.cancel()
        willChange.cancel()
        direct.cancel()
    }

    @Test("objectWillChange fires before any @Published property changes, and is the same publisher at every read")
    func objectWillChangeFiresFirst() {
        let contact = Contact(name: "John", age: 24)
        #expect(contact.objectWillChange === contact.objectWillChange)
        let seen = Locked<[String]>([])
        let cancellable = contact.objectWillChange.sink { [contact] in
            seen.withLock { $0.append("will change: \(contact.name) \(contact.age)") }
        }
        contact.age = 25
        contact.name = "Jo"
        #expect(seen.withLock { $0 } == ["will change: John 24", "will change: John 25"])
        withExtendedLifetime(cancellable) {}
    }

    @Test("a subclass's and its superclass's @Published properties share the one publisher")
    func inheritance() {
        let object = Derived()
        let count = Locked(0)
        let cancellable = object.objectWillChange.sink { count.withLock { $0 += 1 } }
        object.base = 1
        object.derived = 1
        #expect(count.withLock { $0 } == 2)
        withExtendedLifetime(cancellable) {}
    }

    @Test("a nested object's properties are its own: they do not fire the outer object's publisher")
    func nestedObjects() {
        let employee = Employee()
        let count = Locked(0)
        let cancellable = employee.objectWillChange.sink { count.withLock { $0 += 1 } }
        employee.contact.age = 31
        #expect(count.withLock { $0 } == 0)
        employee.title = "lead"
        #expect(count.withLock { $0 } == 1)
        withExtendedLifetime(cancellable) {}
    }

    @Test("an object without @Published properties gets a new, silent publisher at each read")
    func noPublishedProperties() {
        let plain = Plain()
        #expect(plain.objectWillChange !== plain.objectWillChange)
        plain.count = 1
    }

    @Test("an object that declares its own objectWillChange keeps it: @Published does not fire it")
    func declaredPublisher() {
        let manual = Manual()
        let count = Locked(0)
        let cancellable = manual.objectWillChange.sink { count.withLock { $0 += 1 } }
        manual.value = 1
        #expect(count.withLock { $0 } == 0)
        manual.objectWillChange.send()
        #expect(count.withLock { $0 } == 1)
        withExtendedLifetime(cancellable) {}
    }

    @Test("a subscriber with limited demand gets the current value, then, at each request, the value it missed")
    func limitedDemand() {
        let contact = Contact(name: "John", age: 1)
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        contact.$age.subscribe(recorder)
        contact.age = 2  // no demand: missed
        contact.age = 3
        #expect(recorder.values == [1])
        recorder.request(.max(1))  // the value current now, as Combine's Published does
        #expect(recorder.values == [1, 3])
        contact.age = 4  // no demand again
        recorder.request(.max(2))
        contact.age = 5
        #expect(recorder.values == [1, 3, 4, 5])
        recorder.cancel()
    }

    @Test("assign(to: &$property) feeds the property and fires objectWillChange, and ends with the object")
    func assignToPublished() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        var object: Fed? = Fed(from: upstream)
        weak let released = object
        let count = Locked(0)
        let cancellable = object!.objectWillChange.sink { count.withLock { $0 += 1 } }
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.unlimited])
        _ = subscription.send(5)
        #expect(object!.latest == 5)
        #expect(count.withLock { $0 } == 1)
        cancellable.cancel()
        object = nil
        #expect(released == nil, "the pipeline holds the object only weakly")
        #expect(subscription.cancelCount == 1, "the subscription ends with the property")
    }

    @Test("a pipeline that feeds an object's own property makes no cycle")
    func assignFromOwnPublisher() {
        var object: Contact? = Contact(name: "x", age: 1)
        weak let released = object
        object!.$age.map { $0 + 1 }.prefix(3).assign(to: &object!.$age)
        #expect(object!.age == 4)
        object = nil
        #expect(released == nil)
    }
}

@Suite("@Published: concurrent sets", .timeLimit(.minutes(12)))
struct PublishedConcurrentSetTests {
    // Unchecked: the one property's storage is a box that locks every get and set, which is
    // what this test exercises from two threads.
    private final class Model: ObservableObject, @unchecked Sendable {
        @Published var value = -1
    }

    /// Many rounds of two threads setting at once: the race the non-atomic set lost was a few
    /// instructions wide, so each round is short and there are many.
    @Test("after two threads set at once, the stored value is the one the subscriber received last")
    func concurrentSetsLeaveTheLastPublishedValueStored() {
        let rounds = StressBudget.scaled(2_000, minimum: 50)
        let mismatches = Locked<[String]>([])
        for round in 0..<rounds {
            let model = Model()
            let last = Locked(-1)
            let subscription = model.$value.sink { value in last.withLock { $0 = value } }
            runConcurrently(threads: 2) { thread in
                for step in 0..<20 { model.value = thread * 1_000 + step }
            }
            let stored = model.value, received = last.withLock { $0 }
            if stored != received { mismatches.withLock { $0.append("round \(round): stored \(stored), received last \(received)") } }
            subscription.cancel()
        }
        #expect(mismatches.withLock { $0 }.isEmpty, "\(mismatches.withLock { $0.prefix(3) })")
    }

    @Test("objectWillChange sends nothing before a request, then every change whatever the size of it, as Combine's")
    func objectWillChangeTakesAnyRequestAsUnlimited() {
        let publisher = ObservableObjectPublisher()
        let recorder = RecordingSubscriber<Void, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        publisher.subscribe(recorder)
        publisher.send()
        #expect(recorder.valueCount == 0)
        recorder.request(.max(1))
        for _ in 0..<3 { publisher.send() }
        #expect(recorder.valueCount == 3)
        // The recorder notes the two beyond its demand: that is the behaviour Combine's has.
        #expect(recorder.violations.count == 2)
        recorder.cancel()
        publisher.send()
        #expect(recorder.valueCount == 3)

        // What Migration.md tells a `values` loop to put in between: the latest change waits for demand.
        let buffered = RecordingSubscriber<Void, Never>(initialDemand: .max(1))
        defer { buffered.cancel() }
        publisher.buffer(size: 1, prefetch: .byRequest, whenFull: .dropOldest).subscribe(buffered)
        for _ in 0..<3 { publisher.send() }
        #expect(buffered.valueCount == 1)
        buffered.request(.max(5))
        #expect(buffered.valueCount == 2)
        #expect(buffered.violations.isEmpty)
    }
}
