/** A Jest watch plugin (`jest-watcher`'s `WatchPlugin`). */
declare class TimegroundedWatchPlugin {
    private readonly key;
    constructor({ config }?: {
        config?: TimegroundedWatchPluginOptions;
    });
    getUsageInfo(): {
        key: string;
        prompt: string;
    };
    run(_globalConfig: unknown, updateConfigAndRun: UpdateConfigAndRun): Promise<void>;
}
export default TimegroundedWatchPlugin;

/** Options of the watch plugin, from `watchPlugins: [['timegrounded/jest/watch-plugin', { key: 'b' }]]`. */
export declare interface TimegroundedWatchPluginOptions {
    /** The key. @default 'b' */
    key?: string;
}

/** The part of Jest's `updateConfigAndRun` the plugin uses. */
declare type UpdateConfigAndRun = (config?: Record<string, unknown>) => void;

export { }
