// Stress of Future and of the subscribers users write most (Sink, AnySubscriber).
import Dispatch
import Synchronization
import Testing
import Sluice
import SluiceTesting

@Suite("Stress: Future, Sink, AnySubscriber", .timeLimit(.minutes(12)))
struct FutureSinkStressTests {
    /// One operation = one promise call, `subscribe`, `request` or `cancel`: 25,000 futures,
    /// each fulfilled by one thread while a second thread subscribes a subscriber and requests
    /// one value, and a third subscribes an unlimited subscriber and cancels every other one
    /// at once (about 112,500 operations).
    @Test("promises racing with subscribe, request and cancel: one value then finished, nothing after cancel, all released")
    func promisesRacingWithSubscribers() {
        Self.checkPromisesRacingWithSubscribers()
    }

    /// The check of ``promisesRacingWithSubscribers()``, with `fault` (if any) between each
    /// future and its subscribers.
    static func checkPromisesRacingWithSubscribers(fault: InjectedFault? = nil) {
        let count = StressBudget.scaled(100_000) / 4
        var madePromises: [StressShared<Future<Int, Never>.Promise>] = []
        var madeFutures: [StressShared<Future<Int, Never>>] = []
        for _ in 0..<count {
            let future = Future<Int, Never> { madePromises.append(StressShared($0)) }
            madeFutures.append(StressShared(future))
        }
        let promises = madePromises
        let futures = madeFutures
        let requesting = (0..<count).map { _ in RecordingSubscriber<Int, Never>(initialDemand: .none) }
        let unlimited = (0..<count).map { _ in RecordingSubscriber<Int, Never>() }
        let seenAtCancel = Locked([Int](repeating: 0, count: count))
        runConcurrently(threads: 3) { thread in
            switch thread {
            case 0:
                for (index, promise) in promises.enumerated() { promise.value(.success(index)) }
            case 1:
                for index in 0..<count {
                    futures[index].value.subscribe(requesting[index], injecting: fault)
                    requesting[index].request(.max(1))
                }
            default:
                for index in 0..<count {
                    futures[index].value.subscribe(unlimited[index], injecting: fault)
                    guard index % 2 == 0 else { continue }
                    unlimited[index].cancel()
                    let seen = unlimited[index].values.count
                    seenAtCancel.withLock { $0[index] = seen }
                }
            }
        }
        let seen = seenAtCancel.withLock { $0 }
        var weakRecorders: [WeakRecorder<Int>] = []
        for index in 0..<count {
            #expect(requesting[index].values == [index])
            #expect(requesting[index].completion == .finished)
            let values = unlimited[index].values
            if index % 2 == 0 {
                #expect(values.count <= 1 && values.count - seen[index] <= 1, "values after cancel: \(values)")
                #expect(values.allSatisfy { $0 == index })
            } else {
                #expect(values == [index])
                #expect(unlimited[index].completion == .finished)
            }
            for recorder in [requesting[index], unlimited[index]] {
                #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
                weakRecorders.append(WeakRecorder(recorder: recorder))
            }
        }
        _ = consume requesting
        _ = consume unlimited
        // The futures stay alive: a resolved or cancelled future must not keep its subscribers.
        #expect(weakRecorders.allSatisfy { $0.recorder == nil }, "a future keeps a finished or cancelled subscriber")
        _ = futures
    }

    /// One operation = one `send`: 2 threads × 50,000 sends to a subject with two sinks, one
    /// of which cancels itself from inside `receiveValue` half-way (100,000 sends).
    @Test("sinks under concurrent sends get every value in per-sender order; a sink cancelled half-way gets nothing after and is released")
    func sinksUnderConcurrentSends() {
        Self.checkSinksUnderConcurrentSends()
    }

    /// The check of ``sinksUnderConcurrentSends()``, with `fault` (if any) between the subject
    /// and the sink that is kept.
    static func checkSinksUnderConcurrentSends(fault: InjectedFault? = nil) {
        let perSender = StressBudget.scaled(100_000) / 2
        let subject = PassthroughSubject<Tagged, Never>()
        let kept = Locked<[Tagged]>([])
        let cut = Locked<[Tagged]>([])
        let keptSink = Subscribers.Sink<Tagged, Never>(receiveCompletion: { _ in }) { value in
            kept.withLock { $0.append(value) }
        }
        final class Holder { weak var sink: Subscribers.Sink<Tagged, Never>? }
        let holder = Holder()  // written once before the sends, then only read
        var cutSink: Subscribers.Sink<Tagged, Never>? = Subscribers.Sink(receiveCompletion: { _ in }) { value in
            let count = cut.withLock { $0.append(value); return $0.count }
            if count == perSender { holder.sink?.cancel() }
        }
        holder.sink = cutSink
        subject.subscribe(keptSink, injecting: fault)
        subject.subscribe(cutSink!)
        cutSink = nil  // the subject alone keeps it alive now
        #expect(holder.sink != nil, "the subject does not keep its subscriber")
        runConcurrently(threads: 2) { sender in
            for rank in 0..<perSender { subject.send(Tagged(sender: sender, rank: rank)) }
        }
        let (breach, counts) = perSenderOrder(kept.withLock { $0 }, senders: 2)
        #expect(breach == nil, "per-sender order broken: \(breach ?? "")")
        #expect(counts == [perSender, perSender])
        let cutValues = cut.withLock { $0 }
        #expect(perSenderOrder(cutValues, senders: 2).breach == nil)
        #expect(cutValues.count == perSender, "values after the sink cancelled itself")
        #expect(holder.sink == nil, "the subject keeps a cancelled sink")
        subject.send(completion: .finished)  // the subject and the kept sink hold each other until then
    }

    /// One operation = one `send` or `request(.max(1))`: 2 threads × 50,000 sends while a
    /// third thread requests 50,000 × `.max(1)` through an `AnySubscriber` built from closures.
    @Test("an AnySubscriber of closures gets no more than it requested from another thread, in per-sender order")
    func anySubscriberWithinDemandUnderRaces() {
        let perSender = StressBudget.scaled(100_000) / 2
        let requests = StressBudget.scaled(50_000)
        let subject = PassthroughSubject<Tagged, Never>()
        let subscription = Locked<StressShared<any Subscription>?>(nil)
        let received = Locked<[Tagged]>([])
        let subscriber = AnySubscriber<Tagged, Never>(
            receiveSubscription: { upstream in subscription.withLock { $0 = StressShared(upstream) } },
            receiveValue: { value in received.withLock { $0.append(value) }; return .none },
            receiveCompletion: { _ in })
        subject.subscribe(subscriber)
        let upstream = subscription.withLock { $0 }!.value
        let shared = StressShared(upstream)
        runConcurrently(threads: 3) { thread in
            if thread == 2 {
                for _ in 0..<requests { shared.value.request(.max(1)) }
            } else {
                for rank in 0..<perSender { subject.send(Tagged(sender: thread, rank: rank)) }
            }
        }
        let values = received.withLock { $0 }
        #expect(values.count <= requests, "more values than requested")
        #expect(perSenderOrder(values, senders: 2).breach == nil)
        upstream.cancel()
    }
}
