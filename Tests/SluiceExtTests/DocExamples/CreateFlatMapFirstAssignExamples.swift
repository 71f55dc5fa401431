import Sluice
import SluiceExt
import SluiceTesting
import Testing

// The doc comments' examples in Create.swift, FlatMapFirst.swift, PrefixWhileBehavior.swift and
// AssignOwnership.swift, compiled and run; `.ci/check-snippets.sh` checks that each comment
// shows exactly the lines between the snippet's markers.

@Suite struct CreateFlatMapFirstAssignExamples {
    /// A line log that tells observers about appended lines, for the `create` example.
    final class Log {
        private var observers: [Int: (String) -> Void] = [:]
        private var next = 0
        var observerCount: Int { observers.count }

        func observe(_ observer: @escaping (String) -> Void) -> Int {
            next += 1
            observers[next] = observer
            return next
        }

        func remove(_ token: Int) { observers[token] = nil }
        func append(_ line: String) { observers.values.forEach { $0(line) } }
    }

    @Test func createWithCleanup() {
        let log = Log()
        // snippet CreateWithCleanup begin
        let lines = AnyPublisher<String, Never>.create { subscriber in
            let token = log.observe { line in subscriber.send(line) }
            return AnyCancellable { log.remove(token) }
        }
        let recorder = RecordingSubscriber<String, Never>(initialDemand: .max(1))
        lines.subscribe(recorder)
        log.append("first")
        log.append("second")              // buffered: the recorder asked for one
        #expect(recorder.values == ["first"])
        recorder.request(.max(1))
        #expect(recorder.values == ["first", "second"])
        recorder.cancel()                 // the observer is removed
        #expect(log.observerCount == 0)
        // snippet CreateWithCleanup end
    }

    @Test func flatMapFirstIgnores() {
        // snippet FlatMapFirstIgnores begin
        let taps = PassthroughSubject<Int, Never>()
        let request = PassthroughSubject<String, Never>()
        let recorder = RecordingSubscriber<String, Never>()
        taps.flatMapFirst { tap in request.prefix(1).map { "\(tap): \($0)" } }.subscribe(recorder)
        taps.send(1)
        taps.send(2)            // ignored: the request for tap 1 is still running
        request.send("done")
        taps.send(3)            // starts a new request
        request.send("again")
        #expect(recorder.values == ["1: done", "3: again"])
        // snippet FlatMapFirstIgnores end
        recorder.cancel()
    }

    @Test func prefixWhileInclusive() {
        // snippet PrefixWhileInclusive begin
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 2, 5, 3].publisher.prefix(while: { $0 < 3 }, behavior: .inclusive).subscribe(recorder)
        #expect(recorder.values == [1, 2, 5])
        #expect(recorder.completion == .finished)
        // snippet PrefixWhileInclusive end
    }

    @Test func assignWeakly() {
        // snippet AssignWeakly begin
        final class Label { var text = "" }
        let titles = PassthroughSubject<String, Never>()
        var label: Label? = Label()
        weak let watched = label
        let cancellable = titles.assign(to: \.text, on: label!, ownership: .weak)
        titles.send("Hello")
        #expect(watched?.text == "Hello")
        label = nil                       // not kept alive by the subscription
        #expect(watched == nil)
        titles.send("ignored")
        cancellable.cancel()
        // snippet AssignWeakly end
    }
}
