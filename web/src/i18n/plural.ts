// A catalogue entry that holds a count: one text per plural category (Intl.PluralRules), `other`
// always; t() picks by the `n` it is given.
export type Plural = { readonly other: string } & Partial<Readonly<Record<Intl.LDMLPluralRule, string>>>;
