// The `stopword` package (3.1.5) ships no types: each language's function words, by ISO 639-3 code
// (only those language.ts reads).
declare module "stopword" {
  type Words = readonly string[];
  export const eng: Words, cat: Words, ces: Words, dan: Words, deu: Words, est: Words, fin: Words;
  export const fra: Words, glg: Words, hrv: Words, hun: Words, ind: Words, ita: Words, lat: Words;
  export const lav: Words, lit: Words, msa: Words, nld: Words, nob: Words, pol: Words, por: Words;
  export const porBr: Words, ron: Words, slk: Words, slv: Words, spa: Words, swe: Words, tgl: Words;
  export const tur: Words;
}
