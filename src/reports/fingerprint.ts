// Recognising a known problem. A Java stack trace is reduced to its root exception's type and the
// normalised in-app frames (class and method; no line numbers, no lambda, anonymous-class,
// synthetic-accessor or mixin session numbers), so the same bug groups across mod versions whose
// line numbers and compiler-made names differ. A trace without in-app frames falls back to the
// root exception's parameterised message; a report without a trace to its parameterised title.
export type Fingerprint = {
  /** SHA-256 (hex) of the signature and its kind. */
  fingerprint: string;
  kind: "frames" | "message";
  /** The root cause's type, when there is a trace. */
  exceptionType?: string;
  /** What was hashed, readable: a type and its frames, or a parameterised message. */
  signature: string;
};

export type ExceptionBlock = { type: string; message: string; frames: string[] };

/** Frames from these belong to the JDK, the game, its loaders or common libraries, not the mod. */
const LIBRARY_PREFIXES = [
  "java.",
  "javax.",
  "jdk.",
  "sun.",
  "com.sun.",
  "net.minecraft.",
  "com.mojang.",
  "net.fabricmc.",
  "org.quiltmc.",
  "org.spongepowered.",
  "com.llamalad7.",
  "cpw.mods.",
  "net.minecraftforge.",
  "net.neoforged.",
  "org.lwjgl.",
  "io.netty.",
  "com.google.",
  "org.apache.",
  "org.slf4j.",
  "it.unimi.",
  "kotlin.",
  "kotlinx.",
  "scala.",
  "org.objectweb.",
  "org.jetbrains.",
  "oshi.",
  "com.ibm.icu.",
  "org.joml.",
  "com.electronwill.",
  "net.java.",
  "com.github.benmanes.",
  "org.yaml.",
  "com.fasterxml.",
  "okhttp3.",
  "okio.",
];

/** A mixin-injected method in a game class: the mod's code, even though the class is not. */
const MIXIN_METHOD = /^(?:handler|redirect|modify[A-Za-z]*|wrapOperation|wrapWithCondition|localvar|inject)\$(?=.)/;

const HEADER =
  /^\s*(?:Caused by: |Exception in thread "[^"]*" )?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?::\s?(.*))?$/;
const FRAME = /^\s*at\s+(?:[^\s/(]*\/)*([\w$.<>-]+)\.([\w$<>-]+)\(/;

/** Splits a trace into its exception chain (the top, then each "Caused by"); "Suppressed" blocks are left out. */
export function parseTrace(trace: string): ExceptionBlock[] {
  const chain: ExceptionBlock[] = [];
  let current: ExceptionBlock | undefined;
  let suppressed = false;
  for (const line of trace.split(/\r?\n/)) {
    // A hidden class's address (Foo$$Lambda$12/0x0000000801a3c4e8) is not a module prefix.
    const frame = FRAME.exec(line.replace(/\/0x[0-9A-Fa-f]+/g, ""));
    if (frame) {
      if (current && !suppressed) current.frames.push(`${frame[1]}.${frame[2]}`);
      continue;
    }
    if (/^\s*Suppressed: /.test(line)) {
      suppressed = true;
      continue;
    }
    if (/^\s*\.\.\. \d+ more/.test(line) || line.trim() === "") continue;
    const header = HEADER.exec(line);
    // A header starts the chain, or continues it with "Caused by"; other lines are message text.
    if (header && (!current || /^\s*Caused by: /.test(line))) {
      suppressed = false;
      current = { type: header[1]!, message: header[2] ?? "", frames: [] };
      chain.push(current);
    } else if (current && !suppressed && current.frames.length === 0) {
      current.message += `\n${line}`;
    }
  }
  return chain;
}

/** Class and method without compiler- and mixin-made numbers. */
export function normaliseFrame(frame: string): string {
  const dot = frame.lastIndexOf(".");
  let cls = frame.slice(0, dot);
  let method = frame.slice(dot + 1);
  const mixin = MIXIN_METHOD.exec(method);
  if (mixin) {
    // handler$zza000$modid$onAddMessage (Fabric) or handler$zza000$onAddMessage (older, Forge): the
    // kind and the mod's method name. The target class is left out: its name depends on the
    // mappings (Yarn, Mojang, SRG), so one mixin reads the same on every loader.
    return `<mixin>.${mixin[0]}${method.split("$").at(-1)}`;
  }
  cls = cls
    .replace(/\$\$Lambda(?:\$\d+)?(?:\/0x[0-9a-f]+)?/gi, "$$$$Lambda") // Foo$$Lambda$123/0x0000000800c1b2c8
    .replace(/\/0x[0-9a-f]+$/i, "") // other hidden classes
    .replace(/\$\d+/g, "$$"); // anonymous classes Foo$1
  method = method
    .replace(/^lambda\$(.*?)\$\d+$/, "lambda$$$1") // lambda$onTick$3
    .replace(/^lambda\$\d+$/, "lambda")
    .replace(/^access\$\d+$/, "access$$") // access$000
    .replace(/\$lambda[-$]\d+$/, "$$lambda"); // Kotlin
  return `${cls}.${method}`;
}

export function isInApp(frame: string, appPackages: readonly string[]): boolean {
  const method = frame.slice(frame.lastIndexOf(".") + 1);
  if (MIXIN_METHOD.test(method)) return true;
  if (appPackages.length) return appPackages.some((p) => frame.startsWith(p));
  return !LIBRARY_PREFIXES.some((p) => frame.startsWith(p));
}

/** Numbers, hex, uuids, pseudonyms and paths replaced, so one message template is one problem. */
export function parameterise(text: string): string {
  return text
    .replace(/player-[0-9a-f]{10}/g, "<player>")
    .replace(/[0-9A-Fa-f]{8}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{12}/g, "<uuid>")
    .replace(/(?:[A-Za-z]:)?(?:[\\/][^\\/\s:"']+){2,}[\\/]?/g, "<path>")
    .replace(/\b0x[0-9A-Fa-f]+\b/g, "<hex>")
    .replace(/\b(?=[0-9A-Fa-f]*[A-Fa-f])(?=[0-9A-Fa-f]*\d)[0-9A-Fa-f]{6,}\b/g, "<hex>")
    .replace(/\d+(?:\.\d+)*/g, "<n>")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 500);
}

const MAX_FRAMES = 10;

const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

/** The fingerprint of one scrubbed report. */
export function fingerprintOf(
  report: { tool: string; title: string; stackTrace?: string },
  appPackages: readonly string[] = [],
): Fingerprint {
  const chain = report.stackTrace ? parseTrace(report.stackTrace) : [];
  const root = chain.at(-1);
  if (root) {
    // The root cause's own in-app frames; if it has none (thrown inside a library), the nearest
    // wrapper's that does.
    let frames: string[] = [];
    for (let i = chain.length - 1; i >= 0 && frames.length === 0; i--) {
      frames = chain[i]!.frames.filter((f) => isInApp(f, appPackages)).map(normaliseFrame);
    }
    frames = frames.filter((f, i) => f !== frames[i - 1]).slice(0, MAX_FRAMES); // recursion collapses
    if (frames.length) {
      const signature = [root.type, ...frames.map((f) => `  at ${f}`)].join("\n");
      return { fingerprint: sha256(`v1|frames|${signature}`), kind: "frames", exceptionType: root.type, signature };
    }
    const signature = `${root.type}: ${parameterise(root.message)}`;
    return { fingerprint: sha256(`v1|message|${signature}`), kind: "message", exceptionType: root.type, signature };
  }
  const signature = `${report.tool}: ${parameterise(report.title)}`;
  return { fingerprint: sha256(`v1|message|${signature}`), kind: "message", signature };
}
