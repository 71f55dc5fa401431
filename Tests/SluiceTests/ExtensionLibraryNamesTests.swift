import Foundation
import Sluice
import SluiceTesting
import Testing

/// How an extension library (CombineExt) extends Combine's namespaces: with its own
/// `Publishers.Create` and `AnyPublisher.create`, and with an `assign(to:on:ownership:)` whose
/// `.strong` case calls Combine's `assign(to:on:)`. Declared here as such a library declares
/// them, to check that they live next to Sluice's API.
private enum Ownership { case strong, weak }

extension Publisher where Failure == Never {
    fileprivate func assign<Root: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root, ownership: Ownership = .strong
    ) -> AnyCancellable {
        switch ownership {
        case .strong: return assign(to: keyPath, on: object)
        case .weak: return sink { [weak object] in object?[keyPath: keyPath] = $0 }
        }
    }
}

private final class Counter { var count = 0 }

@Suite("Extension libraries' names live next to Sluice's")
struct ExtensionLibraryNamesTests {
    @Test("assign(to:on:) is Combine's exact signature: a library's overload with a defaulted parameter leaves it unambiguous, and its .strong case reaches Sluice's")
    func assignNextToAnOwnershipOverload() {
        let subject = PassthroughSubject<Int, Never>()
        let plain = Counter(), strong = Counter(), weak = Counter()
        let cancellables = [
            subject.assign(to: \.count, on: plain),
            subject.assign(to: \.count, on: strong, ownership: .strong),
            subject.assign(to: \.count, on: weak, ownership: .weak),
        ]
        subject.send(3)
        let counts: [Int] = [plain.count, strong.count, weak.count]
        #expect(counts == [3, 3, 3])
        cancellables.forEach { $0.cancel() }
    }

    #if os(Linux)
    @Test("CombineExt's Publishers.Create and AnyPublisher.create, and its assign overload, compile next to Sluice", .timeLimit(.minutes(12)))
    func combineExtShapedDeclarationsCompile() throws {
        let result = try compile("""
            import Sluice
            extension Publishers {
                struct Create<Output, Failure: Swift.Error>: Publisher {
                    typealias SubscriberHandler = (AnySubscriber<Output, Failure>) -> any Cancellable
                    let factory: SubscriberHandler
                    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
                        _ = factory(AnySubscriber(subscriber))
                    }
                }
            }
            extension AnyPublisher {
                static func create(_ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler) -> AnyPublisher {
                    Publishers.Create(factory: factory).eraseToAnyPublisher()
                }
            }
            enum ObjectOwnership { case strong, weak, unowned }
            extension Publisher where Failure == Never {
                func assign<Root: AnyObject>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root,
                                             ownership: ObjectOwnership = .strong) -> AnyCancellable {
                    switch ownership {
                    case .strong: return assign(to: keyPath, on: object)
                    case .weak: return sink { [weak object] in object?[keyPath: keyPath] = $0 }
                    case .unowned: return sink { [unowned object] in object[keyPath: keyPath] = $0 }
                    }
                }
            }
            final class Model { var value = 0 }
            let model = Model()
            let made = AnyPublisher<Int, Never>.create { subscriber in
                _ = subscriber.receive(1)
                return AnyCancellable {}
            }
            let plain = made.assign(to: \\.value, on: model)
            let weak = made.assign(to: \\.value, on: model, ownership: .weak)
            let emitting = AnyPublisher<Int, Never>.emitting { _ in }
            _ = (plain, weak, emitting)
            """)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("ambiguous"), "\(result.output)")
    }
    #endif
}
