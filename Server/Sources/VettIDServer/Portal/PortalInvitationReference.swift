// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDCore
import VettIDCrypto

/// How the portal's forms name a pending invitation without carrying its code: an HMAC of the code under a key
/// derived from the master key. A page that lists invitations (a `GET`, which may sit in a browser's history or a
/// screenshot) then holds nothing that could enroll a device; the code itself is shown only in the answer to the
/// `POST` that created it or asked to see it.
struct PortalInvitationReference: Sendable {
    private let key: SymmetricKey

    init(key: SymmetricKey) { self.key = key }

    /// The reference of the invitation with `code`.
    func reference(_ code: InvitationCode) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(code.value.utf8), using: key)).prefix(16))
    }

    /// The invitation among `invitations` that `reference` names, compared in constant time.
    func find(_ reference: String?, in invitations: [Invitation]) -> Invitation? {
        guard let reference, reference.utf8.count <= 32, let presented = Base64URL.decode(reference) else { return nil }
        return invitations.first { invitation in
            let expected = Array(
                Data(HMAC<SHA256>.authenticationCode(for: Data(invitation.code.value.utf8), using: key)).prefix(16))
            return expected.count == presented.count && zip(expected, presented).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }
}
