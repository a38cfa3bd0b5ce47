// sodium-native ships no types; the part of its API that domain/sealed-user.ts uses.
declare module 'sodium-native' {
  const sodium: {
    crypto_aead_xchacha20poly1305_ietf_ABYTES: number;
    crypto_aead_xchacha20poly1305_ietf_NPUBBYTES: number;
    /** Writes ciphertext and tag into `out` (message length + ABYTES); returns the bytes written. */
    crypto_aead_xchacha20poly1305_ietf_encrypt(
      out: Uint8Array,
      message: Uint8Array,
      ad: Uint8Array | null,
      nsec: null,
      nonce: Uint8Array,
      key: Uint8Array,
    ): number;
    /** Writes the message into `out` (ciphertext length − ABYTES); throws when it does not authenticate. */
    crypto_aead_xchacha20poly1305_ietf_decrypt(
      out: Uint8Array,
      nsec: null,
      ciphertext: Uint8Array,
      ad: Uint8Array | null,
      nonce: Uint8Array,
      key: Uint8Array,
    ): number;
    /** BLAKE2b of `input` into `out`, keyed by `key` when given. */
    crypto_generichash(out: Uint8Array, input: Uint8Array, key?: Uint8Array): void;
  };
  export default sodium;
}
