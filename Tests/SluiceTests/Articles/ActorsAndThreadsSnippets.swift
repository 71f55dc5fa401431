import Sluice
import Testing

// The examples of ActorsAndThreads.md, compiled and run; `.ci/check-snippets.sh` checks that
// the article shows exactly the lines between each snippet's markers.

// snippet ActorsReceiveOnMainActor begin
@MainActor final class ThermometerModel: ObservableObject {
    @Published private(set) var label = "–"
    private var cancellables = Set<AnyCancellable>()

    init(readings: some Publisher<Double, Never>) {
        readings
            .map { "\($0) °C" }
            .receive(on: .mainActor)
            .sink { [weak self] in self?.label = $0 }   // on the main actor
            .store(in: &cancellables)
    }
}
// snippet ActorsReceiveOnMainActor end

// snippet ActorsSinkOnActor begin
@MainActor final class TapCounter {
    private(set) var taps = 0
    private var cancellable: AnyCancellable?

    func watch(_ source: PassthroughSubject<Void, Never>) {
        // Made on the main actor, so the closure runs there, whichever thread sends; weak, as
        // the counter keeps the subscription.
        cancellable = source.sink { [weak self] in self?.taps += 1 }
    }
}
// snippet ActorsSinkOnActor end

// snippet ActorsIsolatedSink begin
actor Ledger {
    private(set) var entries: [Int] = []
    private var cancellable: AnyCancellable?

    func follow(_ amounts: [Int], whenDone done: @escaping @Sendable () -> Void) {
        // The closures run on this actor, one value at a time: the next value is
        // requested only after receiveValue has returned.
        cancellable = amounts.publisher.sink(
            isolation: self,
            receiveCompletion: { _ in done() },
            receiveValue: { self.entries.append($0) })
    }
}
// snippet ActorsIsolatedSink end

@Suite(.timeLimit(.minutes(12))) struct ActorsAndThreadsSnippets {
    /// Runs in a process of its own (an exit test): "delivered at once" holds when the main
    /// actor's scheduler queue is idle, and every test in a process shares that queue, so a
    /// test hopping to the main actor beside this one made it fail.
    @Test(.exitTest) func receiveOnMainActor() async {
        await #expect(processExitsWith: .success) {
            await Self.receiveOnMainActorRun()
        }
    }

    @MainActor static func receiveOnMainActorRun() async {
        // snippet ActorsReceiveOnMainActorRun begin
        let readings = PassthroughSubject<Double, Never>()
        let model = ThermometerModel(readings: readings)
        readings.send(21.5)   // sent on the main actor, nothing queued: delivered at once
        // model.label == "21.5 °C"
        #expect(model.label == "21.5 °C")
        await Task.detached { readings.send(22) }.value   // sent off the main actor: a hop
        for await label in model.$label.values where label == "22.0 °C" { break }
        // model.label == "22.0 °C"
        // snippet ActorsReceiveOnMainActorRun end
        #expect(model.label == "22.0 °C")
        precondition(model.label == "22.0 °C")
    }

    @Test @MainActor func sinkMadeOnTheMainActor() {
        // snippet ActorsSinkOnActorRun begin
        let taps = PassthroughSubject<Void, Never>()
        let counter = TapCounter()
        counter.watch(taps)
        taps.send()           // on the main actor: the closure runs at once
        // counter.taps == 1
        // snippet ActorsSinkOnActorRun end
        #expect(counter.taps == 1)
    }

    @Test func isolatedSinkOnACustomActor() async {
        // snippet ActorsIsolatedSinkRun begin
        let ledger = Ledger()
        let (done, finish) = AsyncStream<Void>.makeStream()
        await ledger.follow([10, -3, 5]) { finish.finish() }
        for await _ in done {}                  // until the completion has run on the actor
        let entries = await ledger.entries      // [10, -3, 5]
        // snippet ActorsIsolatedSinkRun end
        #expect(entries == [10, -3, 5])
    }
}
