import Foundation
import Testing

#if os(Linux)
@Suite("Swift 6 rejects what would let user code race", .timeLimit(.minutes(12)))
struct CompileTimeIsolationTests {
    @Test("issue 14's view model compiles: its sink runs on the main actor (checked at run time by SinkIsolationTests)")
    func viewModelCompiles() throws {
        let result = try compile("""
            import Sluice
            @MainActor final class ViewModel {
                var title = 0
                var bag = Set<AnyCancellable>()
                func bind(_ s: PassthroughSubject<Int, Never>) {
                    s.sink { self.title = $0 }.store(in: &bag)
                }
            }
            let s = PassthroughSubject<Int, Never>()
            let vm = ViewModel(); vm.bind(s)
            await Task.detached { s.send(1) }.value
            """)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("a subject of non-Sendable values cannot be sent to another task")
    func nonSendableSubjectStaysPut() throws {
        let result = try compile("""
            import Sluice
            final class Box { var n = 0 }
            func f() async {
                let s = PassthroughSubject<Box, Never>()
                let c = s.sink { $0.n += 1 }
                await Task.detached { s.send(Box()) }.value
                s.send(Box())
                c.cancel()
            }
            """)
        #expect(result.status != 0)
        #expect(result.output.contains("risks causing data races"), "\(result.output)")
    }

    @Test("a Sink cannot be sent to another task: its closures may belong to this one")
    func sinkStaysPut() throws {
        let result = try compile("""
            import Sluice
            func f() async {
                var count = 0
                let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { count += $0 })
                await Task.detached { _ = sink.receive(1) }.value
                _ = sink.receive(2)
                print(count)
            }
            """)
        #expect(result.status != 0)
        #expect(result.output.contains("risks causing data races"), "\(result.output)")
    }

    @Test("sink(isolation:), which hands each value to the actor, refuses a non-Sendable output")
    func isolatedSinkNeedsSendableOutput() throws {
        let result = try compile("""
            import Sluice
            final class Box {}
            @MainActor func f(_ p: AnyPublisher<Box, Never>) -> AnyCancellable {
                p.sink(isolation: MainActor.shared) { _ in }
            }
            """)
        #expect(result.status != 0, "\(result.output)")
    }
    @Test("issue 28's program and its variants compile: operator closures on an actor, fed from other threads (checked at run time by OperatorIsolationTests)")
    func operatorClosuresOnActorsCompile() throws {
        let result = try compile("""
            import Foundation
            import Sluice
            import SluiceFoundation
            @MainActor final class ViewModel {
                var mapped = 0
                var bag = Set<AnyCancellable>()
                func bind(_ s: PassthroughSubject<Int, Never>) {
                    s.map { v in self.mapped += 1; return v }
                     .sink { _ in }.store(in: &bag)
                    s.filter { _ in self.mapped > 0 }.scan(0) { $0 + $1 + self.mapped }
                     .handleEvents(receiveOutput: { _ in self.mapped += 1 }, receiveCancel: { self.mapped = 0 })
                     .removeDuplicates { _, _ in self.mapped == 0 }
                     .flatMap { v in Just(v + self.mapped) }
                     .sink { _ in }.store(in: &bag)
                }
                func bindProducer() {
                    Producer<Int, Never> { sender in _ = await sender.send(1) }
                        .map { self.mapped += $0; return $0 }.sink { _ in }.store(in: &bag)
                }
                func bindQueue(_ queue: DispatchQueue) {
                    (0..<3).publisher.receive(on: queue).compactMap { self.mapped += $0; return $0 }
                        .sink { _ in }.store(in: &bag)
                }
                func bindNotifications() {
                    NotificationCenter.default.publisher(for: Notification.Name("n"))
                        .map { _ in self.mapped += 1 }.sink { _ in }.store(in: &bag)
                }
                // The safe forms still compile: the explicit hop, and a Sendable closure.
                func explicit(_ s: PassthroughSubject<Int, Never>) {
                    s.receive(on: .mainActor).map { self.mapped = $0 }.sink { _ in }.store(in: &bag)
                    s.map({ @Sendable v in v * 2 }, isolation: nil).sink { self.mapped = $0 }.store(in: &bag)
                }
            }
            actor Store {
                var total = 0
                var bag = Set<AnyCancellable>()
                func bind(_ s: PassthroughSubject<Int, Never>) {
                    s.map { self.total += $0; return $0 }.filter { $0 > self.total }.sink { _ in }.store(in: &bag)
                }
            }
            let s = PassthroughSubject<Int, Never>()
            let vm = ViewModel(); vm.bind(s)
            await Store().bind(s)
            await Task.detached { s.send(1) }.value
            // Outside any actor, as in Combine.
            func plain() -> AnyCancellable { s.map { $0 + 1 }.filter { $0 > 0 }.sink { print($0) } }
            """)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("an operator whose closure belongs to the main actor cannot be sent to another task")
    func isolatedOperatorStaysPut() throws {
        let result = try compile("""
            import Sluice
            @MainActor final class ViewModel {
                var mapped = 0
                func make(_ s: PassthroughSubject<Int, Never>) async {
                    let mapped = s.map { v in self.mapped += 1; return v }
                    await Task.detached { _ = mapped.sink { _ in } }.value
                }
            }
            """)
        #expect(result.status != 0)
        #expect(result.output.contains("data race") || result.output.contains("Sendable"), "\(result.output)")
    }

    @Test("a subscriber conformance isolated to an actor is rejected: a subject would call it off that actor")
    func isolatedSubscriberConformanceRejected() throws {
        let rejected = try compile("""
            import Sluice
            @MainActor final class Model: @MainActor Subscriber {
                var received = 0
                func receive(subscription: any Subscription) { subscription.request(.unlimited) }
                func receive(_ input: Int) -> Subscribers.Demand { received += input; return .none }
                func receive(completion: Subscribers.Completion<Never>) {}
            }
            """)
        #expect(rejected.status != 0, "\(rejected.output)")
        let accepted = try compile("""
            import Sluice
            final class Counter: Subscriber {
                func receive(subscription: any Subscription) { subscription.request(.unlimited) }
                func receive(_ input: Int) -> Subscribers.Demand { .none }
                func receive(completion: Subscribers.Completion<Never>) {}
            }
            PassthroughSubject<Int, Never>().subscribe(Counter())
            """)
        #expect(accepted.status == 0, "\(accepted.output)")
    }

    @Test("a Future's promise takes its value sending: a value the fulfilling task goes on using is rejected")
    func promiseTakesItsValueSending() throws {
        let rejected = try compile("""
            import Sluice
            final class Box { var x = 0 }
            func make() -> Future<Box, Never> {
                Future { promise in
                    Task.detached {
                        let box = Box()
                        promise(.success(box))
                        box.x += 1
                    }
                }
            }
            """)
        #expect(rejected.status != 0)
        #expect(rejected.output.contains("data race"), "\(rejected.output)")
        let accepted = try compile("""
            import Sluice
            final class Box { var x = 0 }
            func make() -> Future<Box, Never> {
                Future { promise in Task.detached { promise(.success(Box())) } }
            }
            let sendable = Future<Int, Never> { promise in let n = 1; promise(.success(n)); print(n) }
            """)
        #expect(accepted.status == 0, "\(accepted.output)")
    }

    @Test("a Producer sends its values sending: a value the body goes on using is rejected")
    func producerSendsSending() throws {
        let rejected = try compile("""
            import Sluice
            final class Box { var x = 0 }
            let producer = Producer<Box, Never> { sender in
                let box = Box()
                await sender.send(box)
                box.x += 1
            }
            """)
        #expect(rejected.status != 0)
        #expect(rejected.output.contains("data race"), "\(rejected.output)")
        let accepted = try compile("""
            import Sluice
            final class Box { var x = 0 }
            let producer = Producer<Box, Never> { sender in
                for _ in 0..<3 { await sender.send(Box()) }
            }
            let numbers = Producer<Int, Never> { sender in let n = 1; await sender.send(n); print(n) }
            """)
        #expect(accepted.status == 0, "\(accepted.output)")
    }
}
#endif
