import Dispatch
import Testing
import Sluice
import SluiceTesting

/// The program of issue 28: a `map` written in a main-actor view model touches its state, and
/// the subject is sent to from a detached task.
@MainActor
private final class MappingViewModel {
    var mapped = 0
    var bag = Set<AnyCancellable>()
    let log = IsolationLog<Int>()

    func bind(_ subject: PassthroughSubject<Int, Never>) {
        subject.map { [log] value in
            self.mapped += 1
            log.record(value, isolated: MainQueue.isCurrent)
            return value
        }
        .sink { _ in }
        .store(in: &bag)
    }
}

/// A main-actor log, a stream only on the main actor (an isolated conformance): print(to:) made
/// on the main actor must write it there whatever thread sends.
@MainActor
private final class MainActorLines {
    var lines: [String] = []
    let log = IsolationLog<Int>()
}

extension MainActorLines: @MainActor TextOutputStream {
    func write(_ string: String) {
        log.record(lines.count, isolated: MainQueue.isCurrent)
        lines.append(string)
    }
}

/// A main-actor model whose property a key path reads, and a decoder whose conformance is the
/// main actor's: `map(\.keyPath)` and `decode` made on the main actor must use them there.
@MainActor
private final class KeyPathModel {
    var scale = 10
    let reads = IsolationLog<Int>()
    var scaled: Int {
        reads.record(scale, isolated: MainQueue.isCurrent)
        return scale
    }
}

@MainActor
private final class MainActorDecoder {
    var decoded = 0
    let log = IsolationLog<Int>()
}

extension MainActorDecoder: @MainActor TopLevelDecoder {
    func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        decoded += 1
        log.record(decoded, isolated: MainQueue.isCurrent)
        guard let number = Int(text) as? T else { throw CodingFailure() }
        return number
    }
}

/// A model with a `@Published` property that `assign(to:)` feeds.
@MainActor
private final class PublishedModel: ObservableObject {
    @Published var latest = 0
    let sets = IsolationLog<Int>()
    var bag = Set<AnyCancellable>()

    init(_ values: PassthroughSubject<Int, Never>) {
        values.assign(to: &$latest)
        $latest.dropFirst().sink { [sets] in sets.record($0, isolated: MainQueue.isCurrent) }.store(in: &bag)
        objectWillChange.sink { [sets] _ in sets.record(-1, isolated: MainQueue.isCurrent) }.store(in: &bag)
    }
}

/// Sends `values` on another thread and returns once they are all sent, blocking the caller
/// meanwhile (bounded): called on the main actor, every value meets a hop with the main actor
/// busy, so all of them are queued when this returns.
private func sendWhileBlocked(_ subject: PassthroughSubject<Int, Never>, _ values: Range<Int>) {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        for value in values { subject.send(value) }
        done.signal()
    }
    #expect(done.wait(timeout: .now() + 30) == .success)
}

/// Lets the main actor run what was queued on it before this call (the drains of hops).
@MainActor
private func settleMainActor() async {
    for _ in 0..<5 {
        await Task.detached { await MainActor.run {} }.value
        await Task.yield()
    }
}

/// The hops `subscription` (as a downstream received it) is made of: 0 for an upstream's own.
private func hops(_ subscription: (any Subscription)?) -> Int {
    (subscription as? any SignalHop)?.hopsInChain ?? 0
}

@Suite("operator closures run on the actor that made them", .timeLimit(.minutes(12)))
struct OperatorIsolationTests {
    @MainActor @Test("issue 28's view model: its map runs on the main actor, in order, fed from a detached task")
    func issueProgram() async {
        let subject = PassthroughSubject<Int, Never>()
        let model = MappingViewModel()
        model.bind(subject)
        await Task.detached { for i in 1...100 { subject.send(i) } }.value
        await model.log.wait(for: 100)
        #expect(model.log.values == Array(1...100))
        #expect(model.log.allIsolated)
        #expect(model.mapped == 100)
        model.bag.removeAll()
    }

    @MainActor @Test("a value sent on the main actor has been mapped when send returns, as in Combine")
    func mainActorSendIsSynchronous() {
        let subject = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        let cancellable = subject.map { $0 * 2 }.filter { $0 > 0 }.sink { seen.append($0) }
        subject.send(1)
        #expect(seen == [2])
        subject.send(2)
        #expect(seen == [2, 4])
        cancellable.cancel()
    }

    /// One chain per operator family; each closure records whether it ran on the main actor.
    @MainActor
    private static func chains(
        _ subject: PassthroughSubject<Int, Never>, _ log: IsolationLog<Int>
    ) -> [(String, AnyPublisher<Int, any Error>)] {
        struct Failure: Error {}
        func r(_ value: Int) { log.record(value, isolated: MainQueue.isCurrent) }
        let failing = subject.setFailureType(to: Failure.self)
            .tryMap { v -> Int in
                r(v)
                if v == 20 { throw Failure() }
                return v
            }
            .mapError { e -> Failure in r(-1); return Failure() }
        return [
            ("map", subject.map { r($0); return $0 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryMap", subject.tryMap { r($0); return $0 }.eraseToAnyPublisher()),
            ("filter", subject.filter { r($0); return true }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryFilter", subject.tryFilter { r($0); return true }.eraseToAnyPublisher()),
            ("compactMap", subject.compactMap { r($0); return $0 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryCompactMap", subject.tryCompactMap { r($0); return $0 }.eraseToAnyPublisher()),
            ("scan", subject.scan(0) { r($1); return $1 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryScan", subject.tryScan(0) { r($1); return $1 }.eraseToAnyPublisher()),
            ("removeDuplicates", subject.removeDuplicates { r($1); return $0 == $1 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryRemoveDuplicates", subject.tryRemoveDuplicates { r($1); return $0 == $1 }.eraseToAnyPublisher()),
            ("handleEvents", subject.handleEvents(
                receiveSubscription: { _ in r(-2) }, receiveOutput: { r($0) }, receiveCompletion: { _ in r(-1) },
                receiveRequest: { _ in r(-3) }
            ).setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("breakpoint", subject.breakpoint(receiveOutput: { r($0); return false }).setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("reduce", subject.reduce(0) { r($1); return $1 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryReduce", subject.tryReduce(0) { r($1); return $1 }.eraseToAnyPublisher()),
            ("first(where:)", subject.first { r($0); return $0 == 20 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryFirst(where:)", subject.tryFirst { r($0); return $0 == 20 }.eraseToAnyPublisher()),
            ("last(where:)", subject.last { r($0); return true }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryLast(where:)", subject.tryLast { r($0); return true }.eraseToAnyPublisher()),
            ("contains(where:)", subject.contains { r($0); return $0 == 20 }.map { _ in 0 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryContains(where:)", subject.tryContains { r($0); return $0 == 20 }.map { _ in 0 }.eraseToAnyPublisher()),
            ("allSatisfy", subject.allSatisfy { r($0); return true }.map { _ in 0 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryAllSatisfy", subject.tryAllSatisfy { r($0); return true }.map { _ in 0 }.eraseToAnyPublisher()),
            ("min(by:)", subject.min { r($1); return $0 < $1 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("max(by:)", subject.max { r($1); return $0 < $1 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryMin(by:)", subject.tryMin { r($1); return $0 < $1 }.eraseToAnyPublisher()),
            ("tryMax(by:)", subject.tryMax { r($1); return $0 < $1 }.eraseToAnyPublisher()),
            ("drop(while:)", subject.drop { r($0); return $0 < 5 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryDrop(while:)", subject.tryDrop { r($0); return $0 < 5 }.eraseToAnyPublisher()),
            ("prefix(while:)", subject.prefix { r($0); return $0 < 20 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryPrefix(while:)", subject.tryPrefix { r($0); return $0 < 20 }.eraseToAnyPublisher()),
            ("flatMap", subject.flatMap { v -> Just<Int> in r(v); return Just(v) }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("mapError + catch", failing.catch { _ -> Just<Int> in r(-4); return Just(0) }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("tryCatch", failing.tryCatch { _ -> Just<Int> in r(-4); return Just(0) }.eraseToAnyPublisher()),
            ("combineLatest", subject.combineLatest(Just(0)) { a, _ in r(a); return a }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
            ("zip", subject.zip((1...20).publisher) { a, _ in r(a); return a }.setFailureType(to: (any Error).self).eraseToAnyPublisher()),
        ]
    }

    @MainActor @Test("every operator family's closures run on the main actor when fed from another thread")
    func everyFamilyOnMainActor() async {
        let subject = PassthroughSubject<Int, Never>()
        let log = IsolationLog<Int>()
        let completions = IsolationLog<String>()
        let chains = Self.chains(subject, log)
        var bag: [AnyCancellable] = []
        for (name, chain) in chains {
            bag.append(chain.sink(
                receiveCompletion: { _ in completions.record(name, isolated: MainQueue.isCurrent) },
                receiveValue: { _ in }))
        }
        await Task.detached {
            for i in 1...20 { subject.send(i) }
            subject.send(completion: .finished)
        }.value
        await completions.wait(for: chains.count)
        #expect(Set(completions.values) == Set(chains.map(\.0)))
        #expect(log.values.count > 20 * 10)
        #expect(log.allIsolated)
        #expect(completions.allIsolated)
    }

    @MainActor @Test("print(to:) made on the main actor writes its stream there, in order, whatever thread sends or cancels")
    func printWritesItsStreamOnTheMainActor() async {
        let subject = PassthroughSubject<Int, Never>()
        let stream = MainActorLines()
        var received: [Int] = []
        let cancellable = subject.print("p", to: stream).sink { received.append($0) }
        // The subscription and the sink's request reach the subject after a hop to this actor: wait for
        // their two lines. This test resumes on the main actor, so only after the job that wrote the
        // request's line has passed the request on.
        await stream.log.wait(for: 3 * 2)
        await Task.detached { for i in 1...20 { subject.send(i) } }.value
        await Task.detached { cancellable.cancel() }.value
        // Three writes a line: subscription, request, 20 values and the cancel.
        await stream.log.wait(for: 3 * 23)
        #expect(stream.log.allIsolated)
        let lines = stream.lines.filter { $0 != "" && $0 != "\n" }
        #expect(lines.first == "p: receive subscription: (PassthroughSubject)")
        #expect(lines[1] == "p: request unlimited")
        #expect(Array(lines[2..<22]) == (1...20).map { "p: receive value: (\($0))" })
        #expect(lines.last == "p: receive cancel")
        #expect(received == Array(1...20))
    }

    @MainActor @Test("print() to standard output takes no hop on the main actor; print(to:) a stream takes one")
    func printToStandardOutputTakesNoHop() async {
        let subject = PassthroughSubject<Int, Never>()
        let toStandardOutput = RecordingSubscriber<Int, Never>()
        subject.print("no hop").subscribe(toStandardOutput)
        let toStream = RecordingSubscriber<Int, Never>()
        subject.print("one hop", to: MainActorLines()).subscribe(toStream)
        // The main actor is busy while another thread sends: only a value that took no hop has
        // arrived when the send returns.
        sendWhileBlocked(subject, 0..<1)
        #expect(toStandardOutput.values == [0])
        #expect(toStream.values.isEmpty)
        await toStream.waitForValues(count: 1)
        toStandardOutput.cancel()
        toStream.cancel()
    }

    @MainActor @Test("map(\\.keyPath) to a main-actor property reads it on the main actor; a Sendable key path takes no hop")
    func keyPathMapsOnTheMainActor() async {
        let models = PassthroughSubject<KeyPathModel, Never>()
        let model = KeyPathModel()
        let read = RecordingSubscriber<Int, Never>()
        models.map(\.scaled).subscribe(read)
        await Task.detached { for _ in 0..<5 { models.send(model) } }.value
        await model.reads.wait(for: 5)
        #expect(model.reads.allIsolated)
        await read.waitForValues(count: 5)

        let numbers = PassthroughSubject<Int, Never>()
        let direct = RecordingSubscriber<Int, Never>()
        numbers.map(\.bitWidth).subscribe(direct)
        sendWhileBlocked(numbers, 0..<1)
        #expect(direct.values == [Int.bitWidth], "a Sendable key path hopped")
        read.cancel()
        direct.cancel()
    }

    @MainActor @Test("decode with a main-actor decoder runs it on the main actor; a Sendable decoder takes no hop")
    func decodeRunsAnActorsDecoderThere() async {
        let texts = PassthroughSubject<String, Never>()
        let decoder = MainActorDecoder()
        let decoded = RecordingSubscriber<Int, any Error>()
        texts.decode(type: Int.self, decoder: decoder).subscribe(decoded)
        await Task.detached { for i in 1...5 { texts.send(String(i)) } }.value
        await decoder.log.wait(for: 5)
        #expect(decoder.log.allIsolated)
        #expect(decoder.decoded == 5)
        await decoded.waitForValues(count: 5)
        #expect(decoded.values == [1, 2, 3, 4, 5])

        let numbers = PassthroughSubject<Int, Never>()
        let direct = RecordingSubscriber<Int, any Error>()
        numbers.map({ String($0) }, isolation: nil).decode(type: Int.self, decoder: TextDecoder()).subscribe(direct)
        sendWhileBlocked(numbers, 0..<1)
        #expect(direct.values == [0], "a Sendable decoder hopped")
        decoded.cancel()
        direct.cancel()
    }

    @MainActor @Test("assign(to: &$property) made on the main actor sets the property there, objectWillChange first")
    func publishedAssignSetsOnTheMainActor() async {
        let values = PassthroughSubject<Int, Never>()
        let model = PublishedModel(values)
        await Task.detached { for i in 1...5 { values.send(i) } }.value
        await model.sets.wait(for: 10)
        #expect(model.sets.allIsolated)
        #expect(model.sets.values == [-1, 1, -1, 2, -1, 3, -1, 4, -1, 5])
        #expect(model.latest == 5)
    }

    @Test("on a custom actor, every closure of a chain runs isolated to it, in order")
    func customActorChain() async {
        let actor = QueueActor()
        let subject = PassthroughSubject<Int, Never>()
        let log = IsolationLog<Int>()
        let done = IsolationLog<Int>()
        let subscribed = IsolationLog<Int>()
        let watch = DemandWatch(subject)
        let cancellable = await actor.run { actor in
            watch
                .handleEvents(receiveSubscription: { _ in subscribed.record(0, isolated: actor.isCurrent) })
                .map { log.record($0, isolated: actor.isCurrent); return $0 * 2 }
                .filter { log.record($0, isolated: actor.isCurrent); return $0 % 4 == 0 }
                .handleEvents(receiveOutput: { log.record($0, isolated: actor.isCurrent) })
                .scan(0) { log.record($1, isolated: actor.isCurrent); return $0 + $1 }
                .sink(
                    receiveCompletion: { _ in done.record(0, isolated: actor.isCurrent) },
                    receiveValue: { _ in })
        }
        // The subscription reaches the chain after a hop to the actor (values the subject sends
        // before it are dropped, as behind receive(on:)): wait for it, then for the sink's demand to
        // reach the subject, which comes after the subscription passed handleEvents.
        await subscribed.wait(for: 1)
        await watch.waitForRequested(.unlimited)
        #expect(subscribed.allIsolated)
        await Task.detached {
            for i in 1...50 { subject.send(i) }
            subject.send(completion: .finished)
        }.value
        await done.wait(for: 1)
        #expect(log.allIsolated)
        #expect(done.allIsolated)
        // map and filter saw 50 values each, handleEvents and scan the 25 that passed.
        let expected = 150
        #expect(log.values.count == expected)
        #expect(log.values.first == 1)
        cancellable.cancel()
    }

    @MainActor @Test("a Producer and receive(on:) a queue feed main-actor closures on the main actor")
    func otherThreadSources() async {
        let log = IsolationLog<Int>()
        let done = IsolationLog<Int>()
        let producer = Producer<Int, Never> { sender in
            for i in 0..<30 { guard await sender.send(i) else { return } }
        }
        let queue = DispatchQueue(label: "OperatorIsolationTests.queue")
        let c1 = producer.map { log.record($0, isolated: MainQueue.isCurrent); return $0 }
            .sink(receiveCompletion: { _ in done.record(1, isolated: MainQueue.isCurrent) }, receiveValue: { _ in })
        let c2 = (0..<30).publisher.receive(on: queue).filter { log.record($0, isolated: MainQueue.isCurrent); return true }
            .sink(receiveCompletion: { _ in done.record(2, isolated: MainQueue.isCurrent) }, receiveValue: { _ in })
        await done.wait(for: 2)
        #expect(log.values.count == 60)
        #expect(log.allIsolated)
        #expect(done.allIsolated)
        c1.cancel()
        c2.cancel()
    }

    @MainActor @Test("demand is kept across the hop: a limited downstream never gets more than it asked for")
    func demandKeptAcrossTheHop() async {
        let sent = IsolationLog<Int>()
        let producer = Producer<Int, Never> { sender in
            for i in 0..<100 {
                guard await sender.send(i) else { return }
                sent.record(i, isolated: false)
            }
        }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
        producer.map { $0 * 10 }.filter { $0 % 20 == 0 }.subscribe(recorder)
        await recorder.waitForValues(count: 3)
        #expect(recorder.values == [0, 20, 40])
        recorder.request(.max(2))
        await recorder.waitForValues(count: 5)
        #expect(recorder.values == [0, 20, 40, 60, 80])
        #expect(recorder.violations.isEmpty)
        // The producer was asked only for what the filter needed: 9 values (0...8) and at most
        // the one it is suspended in.
        #expect(sent.values.count <= 10)
        recorder.cancel()
    }

    @MainActor @Test("a value returned demand from receive(_:) on the actor goes upstream")
    func returnedDemandGoesUpstream() async {
        let producer = Producer<Int, Never> { sender in
            for i in 0..<10 { guard await sender.send(i) else { return } }
        }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        producer.map { $0 + 1 }.subscribe(recorder)
        _ = await recorder.waitForCompletion()
        #expect(recorder.values == Array(1...10))
        #expect(recorder.violations.isEmpty)
    }

    @MainActor @Test("cancel is prompt: nothing queued reaches a closure after cancel", arguments: [0, 1, 50, 99])
    func cancelAtEveryPoint(at point: Int) async {
        let subject = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = subject.map { value in
            seen.append(value)
            if value == point { cancellable?.cancel() }
            return value
        }.sink { _ in }
        // All 100 values are queued behind the busy main actor.
        sendWhileBlocked(subject, 0..<100)
        #expect(seen.isEmpty)
        await settleMainActor()
        #expect(seen == Array(0...point))
        _ = cancellable
    }

    @MainActor @Test("cancel before the drain runs: none of the queued values is delivered")
    func cancelBeforeDrain() async {
        let subject = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        let cancellable = subject.filter { seen.append($0); return true }.sink { _ in }
        sendWhileBlocked(subject, 0..<100)
        cancellable.cancel()
        await settleMainActor()
        #expect(seen.isEmpty)
    }

    @MainActor @Test("a chain of operators made on one actor hops once")
    func chainHopsOnce() async {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        // (handleEvents and removeDuplicates are left out: their subscription is their own, as in
        // Combine, which would hide the hop.)
        subject.map { $0 + 1 }.filter { _ in true }.compactMap { $0 }.scan(0, +)
            .subscribe(recorder)
        #expect(hops(recorder.subscription) == 1)
        await Task.detached { subject.send(1); subject.send(2) }.value
        await recorder.waitForValues(count: 2)
        #expect(recorder.values == [2, 5])

        let afterReceiveOn = RecordingSubscriber<Int, Never>()
        subject.receive(on: .mainActor).map { $0 }.filter { _ in true }.subscribe(afterReceiveOn)
        // The subscription comes through the shared main-actor queue, which other tests may
        // keep busy: wait until a value has come through.
        while afterReceiveOn.valueCount == 0 {
            await Task.detached { subject.send(3) }.value
            await settleMainActor()
        }
        #expect(hops(afterReceiveOn.subscription) == 1)
        recorder.cancel()
        afterReceiveOn.cancel()
    }

    @Test("outside any actor there is no hop: the downstream gets the upstream's own subscription")
    func noHopOutsideActors() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.map { $0 + 1 }.filter { _ in true }.scan(0, +).subscribe(recorder)
        #expect(hops(recorder.subscription) == 0)
        subject.send(1)
        #expect(recorder.values == [2])
        let explicit = RecordingSubscriber<Int, Never>()
        subject.map({ $0 }, isolation: nil).subscribe(explicit)
        #expect(hops(explicit.subscription) == 0)
        recorder.cancel()
        explicit.cancel()
    }

    @MainActor @Test("concurrent senders: every closure runs on the main actor and each sender's values keep their order")
    func stressConcurrentSenders() async {
        let subject = PassthroughSubject<Int, Never>()
        let log = IsolationLog<Int>()
        let senders = 4, perSender = StressBudget.scaled(500, minimum: 50)
        let cancellable = subject
            .map { log.record($0, isolated: MainQueue.isCurrent); return $0 }
            .filter { _ in MainQueue.isCurrent }
            .sink { _ in }
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask { for i in 0..<perSender { subject.send(sender * perSender + i) } }
            }
        }
        await log.wait(for: senders * perSender)
        #expect(log.allIsolated)
        let values = log.values
        for sender in 0..<senders {
            #expect(values.filter { $0 / perSender == sender } == Array(sender * perSender..<(sender + 1) * perSender))
        }
        cancellable.cancel()
    }
}
