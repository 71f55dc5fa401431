import Sluice

/// An `ObservableObject` model whose state comes from an async producer: a download that
/// reports its progress through a `Producer`, landed on the main actor with
/// `receive(on: .mainActor)`; the sink, made on the main actor, sets the model's properties.
@MainActor
final class DownloadModel: ObservableObject {
    @Published var progress = 0.0
    @Published var finished = false
    private var download: AnyCancellable?

    /// Starts a download of `chunks` chunks; the producer suspends while nobody asks for
    /// progress, and stops if the model goes away (its cancellable cancels the subscription).
    func start(chunks: Int) {
        download = Producer<Double, Never> { sender in
            for chunk in 1...chunks {
                guard await sender.send(Double(chunk) / Double(chunks)) else { return }
            }
        }
        .receive(on: .mainActor)
        .sink(
            receiveCompletion: { [weak self] _ in self?.finished = true },
            receiveValue: { [weak self] in self?.progress = $0 }
        )
    }
}

enum ProducerModelExample {
    /// Runs a download of `chunks` chunks and returns the progress values the model's observers
    /// saw through `objectWillChange` (the value before each change) and at the end.
    @MainActor
    static func run(chunks: Int) async -> (changes: Int, progress: Double) {
        let model = DownloadModel()
        var changes = 0
        let (ended, end) = AsyncStream<Void>.makeStream()
        let observer = model.objectWillChange.sink { changes += 1 }
        let done = model.$finished.sink { if $0 { end.finish() } }
        model.start(chunks: chunks)
        for await _ in ended {}
        withExtendedLifetime((observer, done)) {}
        return (changes, model.progress)
    }
}
