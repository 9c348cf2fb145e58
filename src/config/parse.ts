// From the environment's text to a setting's value: conversion, the check, and what a setting
// accepts in words (said when a value is refused, and by --help).
import { type TSchema, Kind } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

/** What a setting accepts, in words, derived from its schema. */
export function accepts(schema: TSchema): string {
  switch (schema[Kind]) {
    case "Integer":
      return `an integer from ${schema.minimum} to ${schema.maximum}`;
    case "Boolean":
      return "true or false";
    case "Array":
      return `a comma-separated list, each ${accepts(schema.items as TSchema)}`;
    case "Literal":
      return schema.const === "" ? "empty" : JSON.stringify(schema.const);
    case "Union":
      return (schema.anyOf as TSchema[]).map(accepts).join(" or ");
    case "String":
      if (schema.format === "http-url") return "an http:// or https:// URL";
      if (schema.pattern === "^postgres(ql)?://") return "a postgres:// URL";
      return `text of ${schema.minLength ?? 0} to ${schema.maxLength} characters`;
    default:
      return "a valid value";
  }
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** The environment's text as the schema's type (left as text when it does not convert: check refuses it). */
export function convert(schema: TSchema, raw: string): unknown {
  if (schema[Kind] === "Integer") return /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (schema[Kind] === "Boolean") return raw === "true" ? true : raw === "false" ? false : raw;
  if (schema[Kind] === "Array")
    return raw === "" ? [] : raw.split(",").map((item) => convert(schema.items as TSchema, item.trim()));
  return raw;
}

export function check(schema: TSchema, value: unknown): boolean {
  if (schema[Kind] === "Union") return (schema.anyOf as TSchema[]).some((s) => check(s, value));
  if (schema[Kind] === "String" && schema.format === "http-url") {
    return typeof value === "string" && value.length <= schema.maxLength && isHttpUrl(value);
  }
  return Value.Check(schema, value);
}
