// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

extension VaultService {
    /// The member's secrets in the vault, over the connection attached to ``handlerLink``.
    public var secrets: VaultSecretsClient { VaultSecretsClient(link: handlerLink) }

    /// The member's profile in the vault, over the connection attached to ``handlerLink``.
    public var profile: VaultProfileClient { VaultProfileClient(link: handlerLink) }
}
