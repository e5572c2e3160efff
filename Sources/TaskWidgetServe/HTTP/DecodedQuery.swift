public import HummingbirdCore
import Foundation

extension URI {
    /// The query's parameters with their names percent-decoded as well as their values:
    /// Hummingbird decodes values only, so `?form%61t=json` was a parameter no route knew, and
    /// `?li%73t=Work` got past the refusal of per-request scopes.
    public var decodedQueryParameters: FlatDictionary<Substring, Substring> {
        let parameters = queryParameters
        guard parameters.contains(where: { $0.key.contains("%") }) else { return parameters }
        return FlatDictionary(parameters.map { (key: $0.key.removingPercentEncoding.map { $0[...] } ?? $0.key, value: $0.value) })
    }
}
