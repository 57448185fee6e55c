/**
 * A schema refusal in words that name the mistake (the field, what was expected) rather than
 * the schema's vocabulary: "body has an unknown field "promote"", not "must NOT have
 * additional properties". Shared by the HTTP routes (Ajv's errors) and the WebSocket frames
 * (TypeBox's), which report the same facts under different names.
 */

/** The facts of one schema error, whichever validator found it. */
export interface SchemaFault {
  /** Where: `body`, `querystring/after`, `frame/ply`... */
  readonly at: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** The validator's own words, for keywords without better ones here. */
  readonly message: string;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** `^[0-9]{1,9}$`: the querystring's way of saying "a whole number". */
const DIGITS = /^\^\[0-9\]\{1,(\d+)\}\$$/;

export function describeSchemaFault(f: SchemaFault): string {
  const p = f.params;
  switch (f.keyword) {
    case 'additionalProperties':
      return `${f.at} has an unknown ${f.at === 'querystring' ? 'parameter' : 'field'} "${String(p.additionalProperty)}"`;
    case 'required':
      return `${f.at} is missing the ${f.at === 'querystring' ? 'parameter' : 'field'} "${String(p.missingProperty)}"`;
    case 'type':
      return `${f.at} must be ${article(String(p.type))}`;
    case 'pattern': {
      const digits = DIGITS.exec(String(p.pattern));
      if (digits !== null) return `${f.at} must be a whole number of at most ${digits[1]} digits`;
      return `${f.at} does not have the expected form (${String(p.pattern)})`;
    }
    case 'minLength':
      return Number(p.limit) === 1
        ? `${f.at} must not be empty`
        : `${f.at} must be at least ${p.limit} characters long`;
    case 'maxLength':
      return `${f.at} must be at most ${p.limit} characters long`;
    case 'minimum':
    case 'maximum':
      return `${f.at} must be ${f.keyword === 'minimum' ? 'at least' : 'at most'} ${p.limit}`;
    case 'enum':
    case 'const': {
      const allowed = (Array.isArray(p.allowedValues) ? p.allowedValues : [p.allowedValue]).map((v) =>
        JSON.stringify(v),
      );
      return `${f.at} must be ${allowed.length === 1 ? allowed[0] : `one of ${allowed.join(', ')}`}`;
    }
    default:
      return `${f.at} ${f.message}`;
  }
}

/** TypeBox's error (a WebSocket frame's validation) as a fault: `root` names the value (`frame`). */
export function typeboxFault(
  e: { instancePath: string; schemaPath: string; keyword: string; params: Record<string, unknown>; message: string },
  root: string,
): SchemaFault {
  const at = `${root}${e.instancePath}`;
  // an unknown field comes as the `false` schema of additionalProperties, at the field's own path
  if (e.keyword === 'boolean' && e.schemaPath.endsWith('/additionalProperties')) {
    const cut = at.lastIndexOf('/');
    return {
      at: at.slice(0, cut),
      keyword: 'additionalProperties',
      params: { additionalProperty: at.slice(cut + 1) },
      message: e.message,
    };
  }
  if (e.keyword === 'additionalProperties' && Array.isArray(e.params.additionalProperties))
    return {
      at,
      keyword: e.keyword,
      params: { additionalProperty: e.params.additionalProperties[0] },
      message: e.message,
    };
  if (e.keyword === 'required' && Array.isArray(e.params.requiredProperties))
    return {
      at,
      keyword: e.keyword,
      params: { missingProperty: e.params.requiredProperties.join('", "') },
      message: e.message,
    };
  return { at, keyword: e.keyword, params: e.params, message: e.message };
}

/** Ajv's error (Fastify's validation) as a fault: `dataVar` is body, querystring, params or headers. */
export function ajvFault(
  e: { instancePath: string; keyword: string; params: Record<string, unknown>; message?: string },
  dataVar: string,
): SchemaFault {
  return {
    at: `${dataVar}${e.instancePath}`,
    keyword: e.keyword,
    params: e.params,
    message: e.message ?? 'is invalid',
  };
}
