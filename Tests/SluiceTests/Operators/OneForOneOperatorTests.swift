import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable { var value = 0 }
private enum Wrapped: Error, Equatable { case wrapped(TestFailure) }
private struct TestFailure: Error, Equatable {}

@Suite("map, filter, compactMap, their try forms, mapError, setFailureType, replaceNil")
struct OneForOneOperatorTests {
    @Test("map transforms every value and passes the completion on")
    func mapTransforms() {
        let recorder = RecordingSubscriber<Int, Never>()
        (1...4).publisher.map { $0 * 10 }.subscribe(recorder)
        #expect(recorder.values == [10, 20, 30, 40])
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("map hands the upstream subscription itself to the downstream: its request and cancel arrive unchanged")
    func mapPassesTheSubscriptionThrough() {
        let upstream = ControllablePublisher<Int, TestFailure>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<String, TestFailure>(initialDemand: .max(3))
        upstream.map(String.init).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.max(3)])
        #expect(subscription.send(7) == .none)
        recorder.cancel()
        #expect(subscription.cancelCount == 1)
        #expect(recorder.values == ["7"])
    }

    @Test("filter returns one more demand upstream for each value it drops")
    func filterAsksForOneMorePerDrop() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.filter { $0.isMultiple(of: 2) }.subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.send(1) == .max(1))   // dropped: ask for one more
        #expect(subscription.send(2) == .none)     // delivered: the recorder's answer
        #expect(subscription.send(3) == .max(1))
        #expect(recorder.values == [2])
    }

    @Test("filter over a sequence meets a limited demand with values that pass, no more")
    func filterMeetsLimitedDemand() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.eraseToAnyPublisher().filter { $0.isMultiple(of: 3) }.subscribe(recorder)
        #expect(recorder.values == [3, 6])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [3, 6, 9])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }

    @Test("compactMap drops nil, asking for one more each time, and replaceNil replaces it")
    func compactMapAndReplaceNil() {
        let strings = ["1", "x", "3", "y"]
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        strings.publisher.compactMap(Int.init).subscribe(recorder)
        #expect(recorder.values == [1, 3])
        recorder.cancel()
        let replaced = RecordingSubscriber<Int, Never>()
        strings.publisher.map(Int.init).replaceNil(with: -1).subscribe(replaced)
        #expect(replaced.values == [1, -1, 3, -1])
    }

    @Test("tryMap: a throw cancels the upstream once, fails downstream, and nothing follows")
    func tryMapThrow() {
        let upstream = ControllablePublisher<Int, TestFailure>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, any Error>()
        upstream.tryMap { value -> Int in
            if value == 2 { throw Boom(value: value) }
            return value
        }.subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        _ = subscription.send(1)
        _ = subscription.send(2)
        _ = subscription.send(3)
        subscription.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(subscription.cancelCount == 1)
        guard case .failure(let error)? = recorder.completion else { Issue.record("no failure"); return }
        #expect(error as? Boom == Boom(value: 2))
        #expect(recorder.events.count == 3)   // subscription, 1, the failure
    }

    @Test("tryMap, tryFilter, tryCompactMap pass an upstream failure on as any Error")
    func tryOperatorsPassUpstreamFailure() {
        let maps = RecordingSubscriber<Int, any Error>()
        Fail<Int, TestFailure>(error: TestFailure()).tryMap { $0 }.subscribe(maps)
        let filters = RecordingSubscriber<Int, any Error>()
        Fail<Int, TestFailure>(error: TestFailure()).tryFilter { _ in true }.subscribe(filters)
        let compacts = RecordingSubscriber<Int, any Error>()
        Fail<Int, TestFailure>(error: TestFailure()).tryCompactMap { $0 }.subscribe(compacts)
        for recorder in [maps, filters, compacts] {
            guard case .failure(let error)? = recorder.completion else { Issue.record("no failure"); continue }
            #expect(error is TestFailure)
        }
    }

    @Test("tryFilter and tryCompactMap: a throw cancels upstream and fails; a false or nil drops with one more demand")
    func tryFilterAndTryCompactMap() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let filtered = RecordingSubscriber<Int, any Error>(initialDemand: .max(5))
        upstream.tryFilter { value in
            if value < 0 { throw Boom(value: value) }
            return value > 1
        }.subscribe(filtered)
        let first = upstream.subscriptions[0]
        #expect(first.send(1) == .max(1))
        #expect(first.send(2) == .none)
        _ = first.send(-1)
        #expect(filtered.values == [2])
        #expect(first.cancelCount == 1)

        let compacted = RecordingSubscriber<Int, any Error>(initialDemand: .max(5))
        upstream.tryCompactMap { value -> Int? in
            if value < 0 { throw Boom(value: value) }
            return value > 1 ? value * 2 : nil
        }.subscribe(compacted)
        let second = upstream.subscriptions[1]
        #expect(second.send(1) == .max(1))
        #expect(second.send(2) == .none)
        _ = second.send(-5)
        _ = second.send(3)
        #expect(compacted.values == [4])
        #expect(second.cancelCount == 1)
        guard case .failure(let error)? = compacted.completion else { Issue.record("no failure"); return }
        #expect(error as? Boom == Boom(value: -5))
    }

    @Test("mapError converts the failure and leaves values alone; setFailureType retypes a Never publisher")
    func mapErrorAndSetFailureType() {
        let recorder = RecordingSubscriber<Int, Wrapped>()
        let upstream = ControllablePublisher<Int, TestFailure>()
        defer { upstream.detachAll() }
        upstream.mapError { Wrapped.wrapped($0) }.subscribe(recorder)
        _ = upstream.subscriptions[0].send(1)
        upstream.subscriptions[0].send(completion: .failure(TestFailure()))
        #expect(recorder.values == [1])
        #expect(recorder.completion == .failure(.wrapped(TestFailure())))

        let retyped = RecordingSubscriber<Int, TestFailure>()
        Just(5).setFailureType(to: TestFailure.self).subscribe(retyped)
        #expect(retyped.values == [5])
        #expect(retyped.completion == .finished)
    }

    @Test("the fused forms have Combine's types: map.map is a Map, filter.filter a Filter, compactMap.map a CompactMap")
    func fusedTypes() {
        let base = (0..<6).publisher
        let maps: Publishers.Map<Publishers.Sequence<Range<Int>, Never>, String> = base.map { $0 + 1 }.map(String.init)
        let tryMaps: Publishers.TryMap<Publishers.Sequence<Range<Int>, Never>, Int> = base.map { $0 }.tryMap { $0 }
        let filters: Publishers.Filter<Publishers.Sequence<Range<Int>, Never>> = base.filter { $0 > 0 }.filter { $0 < 5 }
        let compacts: Publishers.CompactMap<Publishers.Sequence<Range<Int>, Never>, Int> = base.compactMap { $0 }.map { $0 * 2 }
        let recorder = RecordingSubscriber<String, Never>()
        maps.subscribe(recorder)
        #expect(recorder.values == ["1", "2", "3", "4", "5", "6"])
        let filtered = RecordingSubscriber<Int, Never>()
        filters.subscribe(filtered)
        #expect(filtered.values == [1, 2, 3, 4])
        let compacted = RecordingSubscriber<Int, Never>()
        compacts.subscribe(compacted)
        #expect(compacted.values == [0, 2, 4, 6, 8, 10])
        _ = tryMaps
    }

    @Test("map.filter.sink over a sequence delivers in order with a request from inside receive")
    func chainWithReentrantRequest() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        // Erased, so that the operators' own machinery runs rather than the sequence's overloads.
        (0..<1_000).publisher.eraseToAnyPublisher().map { $0 * 2 }.filter { $0.isMultiple(of: 3) }.subscribe(recorder)
        #expect(recorder.values == (0..<1_000).map { $0 * 2 }.filter { $0.isMultiple(of: 3) })
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("the operator's subscriber describes itself as Combine's does")
    func descriptions() {
        let upstream = SubscriberNamer<Int>()
        _ = upstream.map { $0 }.sink { _ in }
        _ = upstream.filter { _ in true }.sink { _ in }
        _ = upstream.tryMap { $0 }.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        _ = upstream.compactMap { $0 }.sink { _ in }
        #expect(upstream.names.withLock { $0 } == ["Map", "Filter", "TryMap", "CompactMap"])
    }
}

/// A publisher that records how each subscriber describes itself, and subscribes it to nothing.
private struct SubscriberNamer<Output>: Publisher {
    typealias Failure = Never
    let names = Locked<[String]>([])
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        names.withLock { $0.append(String(describing: subscriber)) }
    }
}
