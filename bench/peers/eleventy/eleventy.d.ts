/** The part of Eleventy 3's programmatic API the peer uses (the package ships no declarations for it). */
declare module '@11ty/eleventy' {
  interface UserConfig {
    addTemplate(virtualPath: string, content: unknown, data?: Record<string, unknown>): void;
  }
  export default class Eleventy {
    constructor(input: string, output: string, options?: { quietMode?: boolean; config?: (config: UserConfig) => void });
    write(): Promise<unknown>;
  }
}
