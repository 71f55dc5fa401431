import Testing
import Sluice
import SluiceTesting

private struct Boom: Error, Equatable {}
private struct Point { var x: Int; var y: Int; var z: Int }

@Suite("scan, removeDuplicates, their try forms, and map over key paths")
struct StatefulStepOperatorTests {
    @Test("scan republishes every partial result, and each subscription starts from the initial result")
    func scanAccumulates() {
        let totals = (1...4).publisher.scan(0, +)
        for _ in 0..<2 {
            let recorder = RecordingSubscriber<Int, Never>()
            totals.subscribe(recorder)
            #expect(recorder.values == [1, 3, 6, 10])
            #expect(recorder.completion == .finished)
        }
    }

    @Test("scan keeps demand one for one: a limited demand gets that many partial results")
    func scanDemand() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.scan(100, +).subscribe(recorder)
        #expect(recorder.values == [101, 103])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }

    @Test("tryScan: a throw cancels the upstream and fails; values before it arrive")
    func tryScanThrows() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, any Error>()
        upstream.tryScan(0) { total, value in
            if value < 0 { throw Boom() }
            return total + value
        }.subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        _ = subscription.send(2)
        _ = subscription.send(-1)
        _ = subscription.send(5)
        #expect(recorder.values == [2])
        #expect(subscription.cancelCount == 1)
        guard case .failure(let error)? = recorder.completion else { Issue.record("no failure"); return }
        #expect(error is Boom)
    }

    @Test("removeDuplicates drops a value equal to the last one republished, asking for one more")
    func removeDuplicates() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(10))
        defer { recorder.cancel() }   // the operator and the recorder hold each other until then
        upstream.removeDuplicates().subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.send(1) == .none)
        #expect(subscription.send(1) == .max(1))
        #expect(subscription.send(2) == .none)
        #expect(subscription.send(1) == .none)
        #expect(recorder.values == [1, 2, 1])
    }

    @Test("removeDuplicates(by:) compares with the last value republished, not the last one received")
    func removeDuplicatesComparesWithLastRepublished() {
        let recorder = RecordingSubscriber<Int, Never>()
        // "Within 2 of the last one sent": 0 is sent, 1 and 2 are not, 3 is (3 - 0 > 2).
        [0, 1, 2, 3, 4].publisher.removeDuplicates { abs($0 - $1) <= 2 }.subscribe(recorder)
        #expect(recorder.values == [0, 3])
    }

    @Test("tryRemoveDuplicates: a throw cancels the upstream and fails")
    func tryRemoveDuplicatesThrows() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, any Error>()
        upstream.tryRemoveDuplicates { last, next in
            if next < 0 { throw Boom() }
            return last == next
        }.subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        _ = subscription.send(1)
        #expect(subscription.send(1) == .max(1))
        _ = subscription.send(-1)
        #expect(recorder.values == [1])
        #expect(subscription.cancelCount == 1)
        #expect(recorder.completion.map { if case .failure = $0 { true } else { false } } == true)
    }

    @Test("map over one, two and three key paths")
    func mapKeyPaths() {
        let points = [Point(x: 1, y: 2, z: 3), Point(x: 4, y: 5, z: 6)].publisher
        let xs = RecordingSubscriber<Int, Never>()
        let one: Publishers.MapKeyPath<Publishers.Sequence<[Point], Never>, Int> = points.map(\.x)
        one.subscribe(xs)
        #expect(xs.values == [1, 4])
        var pairs: [String] = []
        _ = points.map(\.x, \.y).sink { pairs.append("\($0.0),\($0.1)") }
        #expect(pairs == ["1,2", "4,5"])
        var triples: [String] = []
        _ = points.map(\.x, \.y, \.z).sink { triples.append("\($0.0),\($0.1),\($0.2)") }
        #expect(triples == ["1,2,3", "4,5,6"])
    }
}
