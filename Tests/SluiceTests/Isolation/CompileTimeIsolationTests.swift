import Foundation
import Testing

#if os(Linux)
@Suite("Swift 6 rejects what would let user code race", .timeLimit(.minutes(3)))
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
}
#endif
