// The class generators: one arbitrary per file, each for the classes of
// catalogue.ts it names. A property picks the generator of each (field, class)
// pair the field inventory lists.
export { CLASSES_OF_KIND, FIELD_CLASSES, FIELD_KINDS, isFieldClass, type ClassValue, type FieldClass, type FieldClassId, type FieldKind } from './catalogue.ts';
export { amountVariant, MAX_AMOUNT, type AmountVariantConstraints } from './amount.ts';
export { binaryVariant, type BinaryVariantConstraints } from './binary.ts';
export { boundaryOffset, type BoundaryOffsetConstraints } from './boundary.ts';
export { identifierVariant, lettered, type IdentifierVariantConstraints } from './identifier.ts';
export { jsonTextChoices, jsonTextVariant, writeJsonText, type JsonTextChoices, type JsonTextVariantConstraints } from './json-text.ts';
export { letterCaseVariant, type LetterCaseVariantConstraints } from './letter-case.ts';
export { lookalikeString, lookalikeValue } from './lookalike.ts';
export { mediaTypeVariant, type MediaTypeVariantConstraints } from './media-type.ts';
export { payerDataVariant, payerMemberName, type PayerData, type PayerDataVariantConstraints } from './payer-data.ts';
export { signatureLabel } from './signature-label.ts';
export { bentSigningInput, signingInputBend, type SigningInputBend, type SigningInputBendConstraints } from './signing-input.ts';
export { MALLEATION_KINDS, malleationNote, signatureMalleation, type Malleation, type MalleationKind, type SignatureMalleationConstraints } from './signature.ts';
export { blankText, textVariant, type TextValue, type TextVariantConstraints } from './text.ts';
export { timestampVariant, type TimestampKind, type TimestampValue, type TimestampVariantConstraints } from './timestamp.ts';
export { CLOCK_ERAS, DST_ZONES, dstInstant, eraDstInstant, zoneOffsetMinutes, type DstInstant, type DstInstantConstraints, type DstZone } from './time-zone.ts';
export { alterToken, tokenAlteration, type TokenAlteration } from './token.ts';
export { foreignHost, hostChoice, untrustedHeaders, type ForeignHost, type HostChoice, type UntrustedHeaders } from './untrusted-headers.ts';
export { pathSegment } from './path-segment.ts';
export { mixedOrderKey, TORSION_POINTS, weakKey, type MixedOrderKey, type WeakKey, type WeakKeyKind } from './weak-key.ts';
export { REDIRECT_TARGETS, retrievalAnswer, retrievalClass, retrievalDelivery, retrievalErrorStatus, retrievalMediaType, retrievalRedirect, retrievalStatus, type RedirectTarget, type RetrievalAnswer } from './retrieval-answer.ts';
