// Generated from GET /openapi.json by scripts/console-types.mjs (openapi-typescript): do not edit. The OpenAPI test
// fails when it is out of date; SLUICE_UPDATE_API_TYPES=1 npx vitest run test/e2e/openapi.e2e.test.ts writes it.

export type paths = {
    "/api/events/beacon": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        entries: {
                            [key: string]: unknown;
                        }[];
                        sdk?: string;
                        sim?: string;
                        token: string;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    }[];
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/cs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        keys: {
                            [key: string]: unknown;
                        }[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/ss": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        keys: {
                            [key: string]: unknown;
                        }[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/testImpressions/beacon": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        entries: {
                            [key: string]: unknown;
                        }[];
                        sdk?: string;
                        sim?: string;
                        token: string;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/testImpressions/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    }[];
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/testImpressions/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        pf: {
                            [key: string]: unknown;
                        }[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/testImpressions/count/beacon": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        entries: {
                            pf: {
                                [key: string]: unknown;
                            }[];
                        } & {
                            [key: string]: unknown;
                        };
                        sdk?: string;
                        sim?: string;
                        token: string;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alert-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            rules: ({
                                addTags?: string[];
                                customFields?: {
                                    [key: string]: string;
                                };
                                drop?: boolean;
                                enabled?: boolean;
                                escalate?: string;
                                id: string;
                                name: string;
                                notify?: string[];
                                set?: {
                                    [key: string]: string;
                                };
                                stop?: boolean;
                                when?: unknown;
                            } & {
                                [key: string]: unknown;
                            })[];
                            updatedAt: string | null;
                            updatedBy?: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        rules: unknown[];
                        version?: number;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            rules: ({
                                addTags?: string[];
                                customFields?: {
                                    [key: string]: string;
                                };
                                drop?: boolean;
                                enabled?: boolean;
                                escalate?: string;
                                id: string;
                                name: string;
                                notify?: string[];
                                set?: {
                                    [key: string]: string;
                                };
                                stop?: boolean;
                                when?: unknown;
                            } & {
                                [key: string]: unknown;
                            })[];
                            updatedAt: string | null;
                            updatedBy?: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alert-rules/dropped": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            dropped: {
                                dedupKey: string;
                                id: string;
                                integrationId: string;
                                receivedAt: string;
                                requestId: string;
                                rule: string;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alert-rules/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        alert?: {
                            correlationId?: string;
                            customFields?: {
                                [key: string]: string;
                            };
                            dedupKey?: string;
                            description?: string;
                            environment?: string;
                            integrationId?: string;
                            service?: string;
                            /** @enum {unknown} */
                            severity?: "critical" | "high" | "warning" | "info";
                            source?: string;
                            /** @enum {unknown} */
                            status?: "firing" | "acknowledged" | "resolved";
                            team?: string;
                        };
                        /** Format: date-time */
                        at?: string;
                        integrationId?: string;
                        payload?: unknown;
                        rules?: unknown[];
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alerts: {
                                after: unknown | null;
                                applied: string[];
                                before: unknown;
                                dropped: boolean;
                                droppedBy?: string;
                                overBudget?: string;
                                suppressedBy?: string;
                                /** Format: date-time */
                                suppressedUntil?: string;
                            }[];
                            /** Format: date-time */
                            at: string;
                            rejected: {
                                index: number;
                                reason: string;
                            }[];
                            rulesVersion: number | null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alert-rules/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    version: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            rules: ({
                                addTags?: string[];
                                customFields?: {
                                    [key: string]: string;
                                };
                                drop?: boolean;
                                enabled?: boolean;
                                escalate?: string;
                                id: string;
                                name: string;
                                notify?: string[];
                                set?: {
                                    [key: string]: string;
                                };
                                stop?: boolean;
                                when?: unknown;
                            } & {
                                [key: string]: unknown;
                            })[];
                            updatedAt: string | null;
                            updatedBy?: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    environment?: string;
                    integrationId?: string;
                    limit?: number;
                    service?: string;
                    severity?: "critical" | "high" | "warning" | "info";
                    status?: "open" | "firing" | "suppressed" | "inhibited" | "acknowledged" | "resolved" | "all";
                    team?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alerts: {
                                /** Format: date-time */
                                acknowledgedAt?: string;
                                acknowledgedBy?: string;
                                correlationId?: string;
                                count: number;
                                customFields: {
                                    [key: string]: string;
                                };
                                dedupKey: string;
                                description: string;
                                environment?: string;
                                /** Format: date-time */
                                firstSeenAt: string;
                                id: string;
                                incidentId?: string;
                                inhibitedBy?: string;
                                integrationId: string;
                                lastRequestId?: string;
                                /** Format: date-time */
                                lastSeenAt: string;
                                overBudget?: string;
                                previousAlertId?: string;
                                /** Format: date-time */
                                resolvedAt?: string;
                                resolvedBy?: string;
                                rulesApplied?: string[];
                                rulesVersion?: number;
                                service?: string;
                                /** @enum {unknown} */
                                severity: "critical" | "high" | "warning" | "info";
                                source: string;
                                /** @enum {unknown} */
                                status: "firing" | "acknowledged" | "resolved" | "suppressed" | "inhibited";
                                suppressedBy?: string;
                                /** Format: date-time */
                                suppressedUntil?: string;
                                tags?: string[];
                                team?: string;
                                timestamp: string;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alerts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            acknowledgedAt?: string;
                            acknowledgedBy?: string;
                            correlationId?: string;
                            count: number;
                            customFields: {
                                [key: string]: string;
                            };
                            dedupKey: string;
                            description: string;
                            environment?: string;
                            /** Format: date-time */
                            firstSeenAt: string;
                            history: {
                                /** Format: date-time */
                                at: string;
                                by?: string;
                                entryId?: string;
                                event: string;
                                requestId?: string;
                            }[];
                            id: string;
                            incidentId?: string;
                            inhibitedBy?: string;
                            integrationId: string;
                            lastRequestId?: string;
                            /** Format: date-time */
                            lastSeenAt: string;
                            overBudget?: string;
                            previousAlertId?: string;
                            /** Format: date-time */
                            resolvedAt?: string;
                            resolvedBy?: string;
                            rulesApplied?: string[];
                            rulesVersion?: number;
                            service?: string;
                            /** @enum {unknown} */
                            severity: "critical" | "high" | "warning" | "info";
                            source: string;
                            /** @enum {unknown} */
                            status: "firing" | "acknowledged" | "resolved" | "suppressed" | "inhibited";
                            suppressedBy?: string;
                            /** Format: date-time */
                            suppressedUntil?: string;
                            tags?: string[];
                            team?: string;
                            timestamp: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alerts/{id}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            acknowledgedAt?: string;
                            acknowledgedBy?: string;
                            correlationId?: string;
                            count: number;
                            customFields: {
                                [key: string]: string;
                            };
                            dedupKey: string;
                            description: string;
                            environment?: string;
                            /** Format: date-time */
                            firstSeenAt: string;
                            id: string;
                            incidentId?: string;
                            inhibitedBy?: string;
                            integrationId: string;
                            lastRequestId?: string;
                            /** Format: date-time */
                            lastSeenAt: string;
                            overBudget?: string;
                            previousAlertId?: string;
                            /** Format: date-time */
                            resolvedAt?: string;
                            resolvedBy?: string;
                            rulesApplied?: string[];
                            rulesVersion?: number;
                            service?: string;
                            /** @enum {unknown} */
                            severity: "critical" | "high" | "warning" | "info";
                            source: string;
                            /** @enum {unknown} */
                            status: "firing" | "acknowledged" | "resolved" | "suppressed" | "inhibited";
                            suppressedBy?: string;
                            /** Format: date-time */
                            suppressedUntil?: string;
                            tags?: string[];
                            team?: string;
                            timestamp: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alerts/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveries: {
                                alert: {
                                    [key: string]: unknown;
                                };
                                alertId: string;
                                attempts: number;
                                /** Format: date-time */
                                createdAt: string;
                                deliveredAt: string | null;
                                destinationId: string;
                                /** @enum {unknown} */
                                event: "triggered" | "reopened" | "acknowledged" | "resolved" | "repeated" | "updated";
                                /** Format: date-time */
                                giveUpAt: string;
                                id: string;
                                lastError: string | null;
                                lastStatus: string | null;
                                log: {
                                    /** Format: date-time */
                                    at: string;
                                    error?: string;
                                    events: number;
                                    ms: number;
                                    /** @enum {unknown} */
                                    result: "delivered" | "retry" | "give-up";
                                    status?: number;
                                }[];
                                nextAttemptAt: string | null;
                                /** @enum {unknown} */
                                status: "pending" | "delivered" | "dead" | "cancelled";
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alerts/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            acknowledgedAt?: string;
                            acknowledgedBy?: string;
                            correlationId?: string;
                            count: number;
                            customFields: {
                                [key: string]: string;
                            };
                            dedupKey: string;
                            description: string;
                            environment?: string;
                            /** Format: date-time */
                            firstSeenAt: string;
                            id: string;
                            incidentId?: string;
                            inhibitedBy?: string;
                            integrationId: string;
                            lastRequestId?: string;
                            /** Format: date-time */
                            lastSeenAt: string;
                            overBudget?: string;
                            previousAlertId?: string;
                            /** Format: date-time */
                            resolvedAt?: string;
                            resolvedBy?: string;
                            rulesApplied?: string[];
                            rulesVersion?: number;
                            service?: string;
                            /** @enum {unknown} */
                            severity: "critical" | "high" | "warning" | "info";
                            source: string;
                            /** @enum {unknown} */
                            status: "firing" | "acknowledged" | "resolved" | "suppressed" | "inhibited";
                            suppressedBy?: string;
                            /** Format: date-time */
                            suppressedUntil?: string;
                            tags?: string[];
                            team?: string;
                            timestamp: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/erasures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            erasures: {
                                attempts: number;
                                deleted?: {
                                    [key: string]: number;
                                };
                                environmentId: string;
                                error?: string;
                                finishedAt?: string;
                                id: string;
                                keyCount: number;
                                requestedAt: string;
                                requests: number;
                                startedAt?: string;
                                /** @enum {unknown} */
                                status: "pending" | "running" | "done" | "failed";
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        keys: string[];
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempts: number;
                            deleted?: {
                                [key: string]: number;
                            };
                            environmentId: string;
                            error?: string;
                            finishedAt?: string;
                            id: string;
                            keyCount: number;
                            keys: string[];
                            requestedAt: string;
                            requests: number;
                            startedAt?: string;
                            /** @enum {unknown} */
                            status: "pending" | "running" | "done" | "failed";
                        };
                    };
                };
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempts: number;
                            deleted?: {
                                [key: string]: number;
                            };
                            environmentId: string;
                            error?: string;
                            finishedAt?: string;
                            id: string;
                            keyCount: number;
                            keys: string[];
                            requestedAt: string;
                            requests: number;
                            startedAt?: string;
                            /** @enum {unknown} */
                            status: "pending" | "running" | "done" | "failed";
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/erasures/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempts: number;
                            deleted?: {
                                [key: string]: number;
                            };
                            environmentId: string;
                            error?: string;
                            finishedAt?: string;
                            id: string;
                            keyCount: number;
                            keys: string[];
                            requestedAt: string;
                            requests: number;
                            startedAt?: string;
                            /** @enum {unknown} */
                            status: "pending" | "running" | "done" | "failed";
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            at: string;
                            environmentId: string;
                            eventTypes: {
                                eventType: string;
                                firstAt: string;
                                last7d: number;
                                last24h: number;
                                last30d: number;
                                lastAt: string;
                                sdkVersions: string[];
                                valueShare: number | null;
                            }[];
                            since: string;
                            truncated: boolean;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/event-types/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    type: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cutRecords: number;
                            eventType: string;
                            firstAt: string;
                            last7d: number;
                            last24h: number;
                            last30d: number;
                            lastAt: string;
                            properties: {
                                fillRate: number;
                                name: string;
                                types: {
                                    boolean?: number;
                                    null?: number;
                                    number?: number;
                                    string?: number;
                                };
                            }[];
                            propertiesTruncated: boolean;
                            sample: number;
                            sdkVersions: string[];
                            valueShare: number | null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/experiments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    from?: string;
                    to?: string;
                };
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            flags: {
                                firstImpressionAt: string;
                                flag: string;
                                impressions: number;
                                keys: number;
                                lastImpressionAt: string;
                                treatments: string[];
                            }[];
                            from: string;
                            to: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/experiments/{flag}/power": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    flag: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        alpha?: number;
                        baseline?: string;
                        from: string;
                        mde: number;
                        metric: string;
                        power?: number;
                        relative?: boolean;
                        rule?: string;
                        sequential?: boolean;
                        sequentialTuning?: number;
                        to?: string;
                        weights?: {
                            [key: string]: number;
                        };
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alpha: number;
                            baseline: string;
                            comparisons: {
                                keysNeeded: number | null;
                                powerNow: number;
                                treatment: string;
                            }[];
                            daysNeeded: number | null;
                            environmentId: string;
                            flag: string;
                            from: string;
                            keysNeeded: number | null;
                            mde: number;
                            measured: {
                                days: {
                                    day: string;
                                    keys: number;
                                    newKeys: number;
                                }[];
                                growth: {
                                    a: number;
                                    b: number;
                                } | null;
                                keys: number;
                                mean: number;
                                variance: number;
                            };
                            message: string;
                            metricId: string;
                            moreDays: number | null;
                            power: number;
                            relative: boolean;
                            sequentialTuning: number | null;
                            /** @enum {unknown} */
                            test: "fixed-horizon" | "sequential";
                            to: string;
                            /** @enum {unknown} */
                            verdict: "powered" | "more days" | "under-powered";
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/experiments/{flag}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    alpha?: number;
                    baseline?: string;
                    correction?: "bh" | "holm" | "none";
                    correctionScope?: "all" | "metric" | "slice";
                    cuped?: boolean;
                    dimension?: string;
                    engine?: "frequentist" | "bayesian";
                    from: string;
                    guardrails?: string;
                    maxSlices?: number;
                    metrics: string;
                    minKeys?: number;
                    prior?: "flat" | "proper";
                    priorMean?: number;
                    priorVariance?: number;
                    rule?: string;
                    sequential?: boolean;
                    sequentialTuning?: number;
                    to: string;
                    weights?: string;
                };
                header?: never;
                path: {
                    env: string;
                    flag: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alpha: number;
                            baseline: string;
                            dimension: {
                                /** @enum {unknown} */
                                correctionScope: "all" | "metric" | "slice";
                                dimension: {
                                    /** @enum {string} */
                                    kind: "rule";
                                } | {
                                    eventTypeId: string;
                                    /** @enum {string} */
                                    kind: "event";
                                    property: string;
                                } | {
                                    attribute: string;
                                    /** @enum {string} */
                                    kind: "identity";
                                    trafficType: string;
                                };
                                maxSlices: number;
                                note: string | null;
                                slices: {
                                    exposure: {
                                        keys: number;
                                        perTreatment: {
                                            [key: string]: number;
                                        };
                                    };
                                    metrics: {
                                        cap: {
                                            applied: boolean;
                                            percentile: number | null;
                                            value: number;
                                        } | null;
                                        comparisons: {
                                            absolute: {
                                                ci: [
                                                    number | null,
                                                    number | null
                                                ] | null;
                                                estimate: number | null;
                                                pValue: number | null;
                                            };
                                            adjustedPValue: number | null;
                                            baseline: string;
                                            bayesian: {
                                                absolute: {
                                                    chanceToWin: number;
                                                    ci: [
                                                        number,
                                                        number
                                                    ];
                                                    expected: number;
                                                    reason: string | null;
                                                    risk: {
                                                        baseline: number;
                                                        treatment: number;
                                                    };
                                                    sd: number;
                                                };
                                                relative: {
                                                    chanceToWin: number;
                                                    ci: [
                                                        number,
                                                        number
                                                    ];
                                                    expected: number;
                                                    reason: string | null;
                                                    risk: {
                                                        baseline: number;
                                                        treatment: number;
                                                    };
                                                    sd: number;
                                                };
                                            } | null;
                                            cuped: {
                                                theta: number | null;
                                                varianceReduction: number | null;
                                            } | null;
                                            degreesOfFreedom: number | null;
                                            differentialImpact: {
                                                adjustedPValue: number | null;
                                                difference: number;
                                                flagged: boolean;
                                                pValue: number | null;
                                            } | null;
                                            familySize: number;
                                            guardrail: ("ok" | "at risk" | "failing") | null;
                                            /** @enum {unknown} */
                                            impact: "desired" | "undesired" | "inconclusive";
                                            note: string | null;
                                            relative: {
                                                ci: [
                                                    number | null,
                                                    number | null
                                                ] | null;
                                                estimate: number | null;
                                                /** @enum {unknown} */
                                                of: "baseline-mean" | "absolute-change";
                                                pValue: number | null;
                                            };
                                            significant: boolean;
                                            treatment: string;
                                        }[];
                                        cuped: {
                                            preExposureDays: number;
                                            varianceReduction: number | null;
                                        } | null;
                                        desiredDirection: string;
                                        guardrail: boolean;
                                        metricId: string;
                                        name: string;
                                        perTreatment: {
                                            [key: string]: {
                                                keys: number;
                                                mean: number | null;
                                                sum: number | null;
                                                variance: number | null;
                                            };
                                        };
                                        quantile: number | null;
                                        type: string;
                                    }[];
                                    srm: {
                                        chiSquared: number;
                                        mismatch: boolean;
                                        pValue: number;
                                    };
                                    value: string | null;
                                }[];
                            } | null;
                            environmentId: string;
                            exposure: {
                                excludedKeys: number;
                                keys: number;
                                perTreatment: {
                                    [key: string]: number;
                                };
                            };
                            flag: string;
                            from: string;
                            metrics: {
                                cap: {
                                    applied: boolean;
                                    percentile: number | null;
                                    value: number;
                                } | null;
                                comparisons: {
                                    absolute: {
                                        ci: [
                                            number | null,
                                            number | null
                                        ] | null;
                                        estimate: number | null;
                                        pValue: number | null;
                                    };
                                    adjustedPValue: number | null;
                                    baseline: string;
                                    bayesian: {
                                        absolute: {
                                            chanceToWin: number;
                                            ci: [
                                                number,
                                                number
                                            ];
                                            expected: number;
                                            reason: string | null;
                                            risk: {
                                                baseline: number;
                                                treatment: number;
                                            };
                                            sd: number;
                                        };
                                        relative: {
                                            chanceToWin: number;
                                            ci: [
                                                number,
                                                number
                                            ];
                                            expected: number;
                                            reason: string | null;
                                            risk: {
                                                baseline: number;
                                                treatment: number;
                                            };
                                            sd: number;
                                        };
                                    } | null;
                                    cuped: {
                                        theta: number | null;
                                        varianceReduction: number | null;
                                    } | null;
                                    degreesOfFreedom: number | null;
                                    guardrail: ("ok" | "at risk" | "failing") | null;
                                    /** @enum {unknown} */
                                    impact: "desired" | "undesired" | "inconclusive";
                                    note: string | null;
                                    relative: {
                                        ci: [
                                            number | null,
                                            number | null
                                        ] | null;
                                        estimate: number | null;
                                        /** @enum {unknown} */
                                        of: "baseline-mean" | "absolute-change";
                                        pValue: number | null;
                                    };
                                    significant: boolean;
                                    treatment: string;
                                }[];
                                cuped: {
                                    preExposureDays: number;
                                    varianceReduction: number | null;
                                } | null;
                                desiredDirection: string;
                                guardrail: boolean;
                                metricId: string;
                                name: string;
                                perTreatment: {
                                    [key: string]: {
                                        keys: number;
                                        mean: number | null;
                                        sum: number | null;
                                        variance: number | null;
                                    };
                                };
                                quantile: number | null;
                                type: string;
                            }[];
                            minKeys: number;
                            mode: {
                                /** @enum {unknown} */
                                correction: "bh" | "holm" | "none";
                                cuped: boolean;
                                /** @enum {unknown} */
                                engine: "frequentist" | "bayesian";
                                note: string | null;
                                prior: {
                                    /** @enum {boolean} */
                                    proper: false;
                                } | {
                                    mean: number;
                                    /** @enum {boolean} */
                                    proper: true;
                                    /** @enum {string} */
                                    scale: "relative";
                                    variance: number;
                                } | null;
                                sequentialTuning: number | null;
                                /** @enum {unknown} */
                                test: "fixed-horizon" | "sequential";
                            };
                            rule: string | null;
                            srm: {
                                chiSquared: number;
                                expected: {
                                    [key: string]: number;
                                };
                                mismatch: boolean;
                                pValue: number;
                            };
                            to: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/experiments/{flag}/results/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    alpha?: number;
                    baseline?: string;
                    correction?: "bh" | "holm" | "none";
                    correctionScope?: "all" | "metric" | "slice";
                    cuped?: boolean;
                    dimension?: string;
                    engine?: "frequentist" | "bayesian";
                    from: string;
                    guardrails?: string;
                    interval?: "hour" | "day" | "week";
                    maxSlices?: number;
                    metrics: string;
                    minKeys?: number;
                    prior?: "flat" | "proper";
                    priorMean?: number;
                    priorVariance?: number;
                    rule?: string;
                    sequential?: boolean;
                    sequentialTuning?: number;
                    to: string;
                    weights?: string;
                };
                header?: never;
                path: {
                    env: string;
                    flag: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            flag: string;
                            /** @enum {unknown} */
                            interval: "hour" | "day" | "week";
                            points: {
                                note: string | null;
                                results: {
                                    alpha: number;
                                    baseline: string;
                                    dimension: {
                                        /** @enum {unknown} */
                                        correctionScope: "all" | "metric" | "slice";
                                        dimension: {
                                            /** @enum {string} */
                                            kind: "rule";
                                        } | {
                                            eventTypeId: string;
                                            /** @enum {string} */
                                            kind: "event";
                                            property: string;
                                        } | {
                                            attribute: string;
                                            /** @enum {string} */
                                            kind: "identity";
                                            trafficType: string;
                                        };
                                        maxSlices: number;
                                        note: string | null;
                                        slices: {
                                            exposure: {
                                                keys: number;
                                                perTreatment: {
                                                    [key: string]: number;
                                                };
                                            };
                                            metrics: {
                                                cap: {
                                                    applied: boolean;
                                                    percentile: number | null;
                                                    value: number;
                                                } | null;
                                                comparisons: {
                                                    absolute: {
                                                        ci: [
                                                            number | null,
                                                            number | null
                                                        ] | null;
                                                        estimate: number | null;
                                                        pValue: number | null;
                                                    };
                                                    adjustedPValue: number | null;
                                                    baseline: string;
                                                    bayesian: {
                                                        absolute: {
                                                            chanceToWin: number;
                                                            ci: [
                                                                number,
                                                                number
                                                            ];
                                                            expected: number;
                                                            reason: string | null;
                                                            risk: {
                                                                baseline: number;
                                                                treatment: number;
                                                            };
                                                            sd: number;
                                                        };
                                                        relative: {
                                                            chanceToWin: number;
                                                            ci: [
                                                                number,
                                                                number
                                                            ];
                                                            expected: number;
                                                            reason: string | null;
                                                            risk: {
                                                                baseline: number;
                                                                treatment: number;
                                                            };
                                                            sd: number;
                                                        };
                                                    } | null;
                                                    cuped: {
                                                        theta: number | null;
                                                        varianceReduction: number | null;
                                                    } | null;
                                                    degreesOfFreedom: number | null;
                                                    differentialImpact: {
                                                        adjustedPValue: number | null;
                                                        difference: number;
                                                        flagged: boolean;
                                                        pValue: number | null;
                                                    } | null;
                                                    familySize: number;
                                                    guardrail: ("ok" | "at risk" | "failing") | null;
                                                    /** @enum {unknown} */
                                                    impact: "desired" | "undesired" | "inconclusive";
                                                    note: string | null;
                                                    relative: {
                                                        ci: [
                                                            number | null,
                                                            number | null
                                                        ] | null;
                                                        estimate: number | null;
                                                        /** @enum {unknown} */
                                                        of: "baseline-mean" | "absolute-change";
                                                        pValue: number | null;
                                                    };
                                                    significant: boolean;
                                                    treatment: string;
                                                }[];
                                                cuped: {
                                                    preExposureDays: number;
                                                    varianceReduction: number | null;
                                                } | null;
                                                desiredDirection: string;
                                                guardrail: boolean;
                                                metricId: string;
                                                name: string;
                                                perTreatment: {
                                                    [key: string]: {
                                                        keys: number;
                                                        mean: number | null;
                                                        sum: number | null;
                                                        variance: number | null;
                                                    };
                                                };
                                                quantile: number | null;
                                                type: string;
                                            }[];
                                            srm: {
                                                chiSquared: number;
                                                mismatch: boolean;
                                                pValue: number;
                                            };
                                            value: string | null;
                                        }[];
                                    } | null;
                                    environmentId: string;
                                    exposure: {
                                        excludedKeys: number;
                                        keys: number;
                                        perTreatment: {
                                            [key: string]: number;
                                        };
                                    };
                                    flag: string;
                                    from: string;
                                    metrics: {
                                        cap: {
                                            applied: boolean;
                                            percentile: number | null;
                                            value: number;
                                        } | null;
                                        comparisons: {
                                            absolute: {
                                                ci: [
                                                    number | null,
                                                    number | null
                                                ] | null;
                                                estimate: number | null;
                                                pValue: number | null;
                                            };
                                            adjustedPValue: number | null;
                                            baseline: string;
                                            bayesian: {
                                                absolute: {
                                                    chanceToWin: number;
                                                    ci: [
                                                        number,
                                                        number
                                                    ];
                                                    expected: number;
                                                    reason: string | null;
                                                    risk: {
                                                        baseline: number;
                                                        treatment: number;
                                                    };
                                                    sd: number;
                                                };
                                                relative: {
                                                    chanceToWin: number;
                                                    ci: [
                                                        number,
                                                        number
                                                    ];
                                                    expected: number;
                                                    reason: string | null;
                                                    risk: {
                                                        baseline: number;
                                                        treatment: number;
                                                    };
                                                    sd: number;
                                                };
                                            } | null;
                                            cuped: {
                                                theta: number | null;
                                                varianceReduction: number | null;
                                            } | null;
                                            degreesOfFreedom: number | null;
                                            guardrail: ("ok" | "at risk" | "failing") | null;
                                            /** @enum {unknown} */
                                            impact: "desired" | "undesired" | "inconclusive";
                                            note: string | null;
                                            relative: {
                                                ci: [
                                                    number | null,
                                                    number | null
                                                ] | null;
                                                estimate: number | null;
                                                /** @enum {unknown} */
                                                of: "baseline-mean" | "absolute-change";
                                                pValue: number | null;
                                            };
                                            significant: boolean;
                                            treatment: string;
                                        }[];
                                        cuped: {
                                            preExposureDays: number;
                                            varianceReduction: number | null;
                                        } | null;
                                        desiredDirection: string;
                                        guardrail: boolean;
                                        metricId: string;
                                        name: string;
                                        perTreatment: {
                                            [key: string]: {
                                                keys: number;
                                                mean: number | null;
                                                sum: number | null;
                                                variance: number | null;
                                            };
                                        };
                                        quantile: number | null;
                                        type: string;
                                    }[];
                                    minKeys: number;
                                    mode: {
                                        /** @enum {unknown} */
                                        correction: "bh" | "holm" | "none";
                                        cuped: boolean;
                                        /** @enum {unknown} */
                                        engine: "frequentist" | "bayesian";
                                        note: string | null;
                                        prior: {
                                            /** @enum {boolean} */
                                            proper: false;
                                        } | {
                                            mean: number;
                                            /** @enum {boolean} */
                                            proper: true;
                                            /** @enum {string} */
                                            scale: "relative";
                                            variance: number;
                                        } | null;
                                        sequentialTuning: number | null;
                                        /** @enum {unknown} */
                                        test: "fixed-horizon" | "sequential";
                                    };
                                    rule: string | null;
                                    srm: {
                                        chiSquared: number;
                                        expected: {
                                            [key: string]: number;
                                        };
                                        mismatch: boolean;
                                        pValue: number;
                                    };
                                    to: string;
                                } | null;
                                to: string;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/experiments/{flag}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    flag: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            baseline: string | null;
                            weights: {
                                [key: string]: number;
                            } | null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    flag: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        baseline: string | null;
                        weights: {
                            [key: string]: number;
                        } | null;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            baseline: string | null;
                            weights: {
                                [key: string]: number;
                            } | null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/flags-seen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            at: string;
                            environmentId: string;
                            flags: {
                                firstAt: string;
                                flag: string;
                                last7d: number;
                                last24h: number;
                                last30d: number;
                                lastAt: string;
                                sdkVersions: string[];
                                treatments: string[];
                            }[];
                            since: string;
                            truncated: boolean;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            at: string;
                            consumerLag: {
                                [key: string]: number;
                            } | null;
                            environmentId: string;
                            freshness: {
                                canaries: number;
                                hour: string;
                                notQueryable: number;
                                p50Ms: number | null;
                                p95Ms: number | null;
                            }[];
                            lastEventAt: string | null;
                            lastImpressionAt: string | null;
                            minutes: {
                                events: number;
                                impressions: number;
                                minute: string;
                                refusedEvents: number;
                                refusedImpressions: number;
                            }[];
                            note: string | null;
                            sdks: {
                                impressionsMode: string | null;
                                lastSeenAt: string;
                                modeSource: ("header" | "telemetry") | null;
                                sdkVersion: string;
                                sends: string[];
                            }[];
                            topReasons: {
                                /** @enum {unknown} */
                                kind: "events" | "impressions";
                                reason: string;
                                records: number;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/rejections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    from?: string;
                    kind?: "events" | "impressions";
                    to?: string;
                };
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            from: string;
                            /** @enum {unknown} */
                            kind: "events" | "impressions";
                            reasons: {
                                examples: {
                                    raw: string;
                                    rawBytes: number;
                                    receivedAt: string;
                                    requestId: string;
                                    truncated: boolean;
                                }[];
                                firstAt: string;
                                lastAt: string;
                                reason: string;
                                records: number;
                            }[];
                            to: string;
                            total: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/replays": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            replays: {
                                attempts: number;
                                environmentId: string;
                                error?: string;
                                filter: {
                                    eventType?: string;
                                    from: string;
                                    /** @enum {unknown} */
                                    kind: "events" | "impressions";
                                    reason?: string;
                                    to: string;
                                };
                                finishedAt?: string;
                                id: string;
                                notReplayable: number;
                                published: number;
                                refusedAgain?: number;
                                requestedAt: string;
                                requestedBy: string;
                                startedAt?: string;
                                /** @enum {unknown} */
                                status: "pending" | "running" | "done" | "failed";
                                stored?: number;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        eventType?: string;
                        from?: string;
                        /** @enum {unknown} */
                        kind: "events" | "impressions";
                        reason?: string;
                        to?: string;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempts: number;
                            environmentId: string;
                            error?: string;
                            filter: {
                                eventType?: string;
                                from: string;
                                /** @enum {unknown} */
                                kind: "events" | "impressions";
                                reason?: string;
                                to: string;
                            };
                            finishedAt?: string;
                            id: string;
                            notReplayable: number;
                            published: number;
                            refusedAgain?: number;
                            requestedAt: string;
                            requestedBy: string;
                            startedAt?: string;
                            /** @enum {unknown} */
                            status: "pending" | "running" | "done" | "failed";
                            stored?: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/replays/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempts: number;
                            environmentId: string;
                            error?: string;
                            filter: {
                                eventType?: string;
                                from: string;
                                /** @enum {unknown} */
                                kind: "events" | "impressions";
                                reason?: string;
                                to: string;
                            };
                            finishedAt?: string;
                            id: string;
                            notReplayable: number;
                            published: number;
                            refusedAgain?: number;
                            requestedAt: string;
                            requestedBy: string;
                            startedAt?: string;
                            /** @enum {unknown} */
                            status: "pending" | "running" | "done" | "failed";
                            stored?: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/replays/dry-run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        eventType?: string;
                        from?: string;
                        /** @enum {unknown} */
                        kind: "events" | "impressions";
                        reason?: string;
                        to?: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            alreadyReplayed: number;
                            complete: boolean;
                            environmentId: string;
                            examined: number;
                            filter: {
                                eventType?: string;
                                from: string;
                                /** @enum {unknown} */
                                kind: "events" | "impressions";
                                reason?: string;
                                to: string;
                            };
                            notReplayable: number;
                            planVersion: number | null;
                            refusals: {
                                examples: string[];
                                reason: string;
                                records: number;
                            }[];
                            selected: number;
                            stillRefused: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/tail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    eventType?: string;
                    flag?: string;
                    key?: string;
                };
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/tracking-plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            plan: {
                                events: {
                                    [key: string]: {
                                        description?: string;
                                        owner?: string;
                                        properties?: {
                                            [key: string]: {
                                                description?: string;
                                                enum?: (string | number | boolean | null)[];
                                                /** @enum {unknown} */
                                                format?: "date-time" | "date" | "time" | "email" | "uri" | "uuid" | "ipv4" | "ipv6" | "hostname";
                                                maximum?: number;
                                                maxLength?: number;
                                                minimum?: number;
                                                minLength?: number;
                                                pattern?: string;
                                                required?: boolean;
                                                type?: ("string" | "number" | "integer" | "boolean" | "null") | ("string" | "number" | "integer" | "boolean" | "null")[];
                                            };
                                        };
                                        /** @enum {unknown} */
                                        unplannedProperties?: "allow" | "violation";
                                        value?: {
                                            description?: string;
                                            maximum?: number;
                                            minimum?: number;
                                            required?: boolean;
                                        };
                                    };
                                };
                                /** @enum {unknown} */
                                mode: "observe" | "block" | "strip";
                                /** @enum {unknown} */
                                unplannedEvents: "allow" | "violation";
                                /** @enum {unknown} */
                                unplannedProperties: "allow" | "violation";
                            };
                            savedAt: string;
                            savedBy: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        baseVersion: number;
                        plan: {
                            events: {
                                [key: string]: {
                                    description?: string;
                                    owner?: string;
                                    properties?: {
                                        [key: string]: {
                                            description?: string;
                                            enum?: (string | number | boolean | null)[];
                                            /** @enum {unknown} */
                                            format?: "date-time" | "date" | "time" | "email" | "uri" | "uuid" | "ipv4" | "ipv6" | "hostname";
                                            maximum?: number;
                                            maxLength?: number;
                                            minimum?: number;
                                            minLength?: number;
                                            pattern?: string;
                                            required?: boolean;
                                            type?: ("string" | "number" | "integer" | "boolean" | "null") | ("string" | "number" | "integer" | "boolean" | "null")[];
                                        };
                                    };
                                    /** @enum {unknown} */
                                    unplannedProperties?: "allow" | "violation";
                                    value?: {
                                        description?: string;
                                        maximum?: number;
                                        minimum?: number;
                                        required?: boolean;
                                    };
                                };
                            };
                            /** @enum {unknown} */
                            mode: "observe" | "block" | "strip";
                            /** @enum {unknown} */
                            unplannedEvents: "allow" | "violation";
                            /** @enum {unknown} */
                            unplannedProperties: "allow" | "violation";
                        };
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            plan: {
                                events: {
                                    [key: string]: {
                                        description?: string;
                                        owner?: string;
                                        properties?: {
                                            [key: string]: {
                                                description?: string;
                                                enum?: (string | number | boolean | null)[];
                                                /** @enum {unknown} */
                                                format?: "date-time" | "date" | "time" | "email" | "uri" | "uuid" | "ipv4" | "ipv6" | "hostname";
                                                maximum?: number;
                                                maxLength?: number;
                                                minimum?: number;
                                                minLength?: number;
                                                pattern?: string;
                                                required?: boolean;
                                                type?: ("string" | "number" | "integer" | "boolean" | "null") | ("string" | "number" | "integer" | "boolean" | "null")[];
                                            };
                                        };
                                        /** @enum {unknown} */
                                        unplannedProperties?: "allow" | "violation";
                                        value?: {
                                            description?: string;
                                            maximum?: number;
                                            minimum?: number;
                                            required?: boolean;
                                        };
                                    };
                                };
                                /** @enum {unknown} */
                                mode: "observe" | "block" | "strip";
                                /** @enum {unknown} */
                                unplannedEvents: "allow" | "violation";
                                /** @enum {unknown} */
                                unplannedProperties: "allow" | "violation";
                            };
                            savedAt: string;
                            savedBy: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/tracking-plan/proposal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            plan: {
                                events: {
                                    [key: string]: {
                                        description?: string;
                                        owner?: string;
                                        properties?: {
                                            [key: string]: {
                                                description?: string;
                                                enum?: (string | number | boolean | null)[];
                                                /** @enum {unknown} */
                                                format?: "date-time" | "date" | "time" | "email" | "uri" | "uuid" | "ipv4" | "ipv6" | "hostname";
                                                maximum?: number;
                                                maxLength?: number;
                                                minimum?: number;
                                                minLength?: number;
                                                pattern?: string;
                                                required?: boolean;
                                                type?: ("string" | "number" | "integer" | "boolean" | "null") | ("string" | "number" | "integer" | "boolean" | "null")[];
                                            };
                                        };
                                        /** @enum {unknown} */
                                        unplannedProperties?: "allow" | "violation";
                                        value?: {
                                            description?: string;
                                            maximum?: number;
                                            minimum?: number;
                                            required?: boolean;
                                        };
                                    };
                                };
                                /** @enum {unknown} */
                                mode: "observe" | "block" | "strip";
                                /** @enum {unknown} */
                                unplannedEvents: "allow" | "violation";
                                /** @enum {unknown} */
                                unplannedProperties: "allow" | "violation";
                            };
                            truncated: boolean;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/tracking-plan/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            changes: {
                                bytes: number;
                                eventTypes: number;
                                /** @enum {unknown} */
                                mode: "observe" | "block" | "strip";
                                savedAt: string;
                                savedBy: string;
                                version: number;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/tracking-plan/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    version: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            plan: {
                                events: {
                                    [key: string]: {
                                        description?: string;
                                        owner?: string;
                                        properties?: {
                                            [key: string]: {
                                                description?: string;
                                                enum?: (string | number | boolean | null)[];
                                                /** @enum {unknown} */
                                                format?: "date-time" | "date" | "time" | "email" | "uri" | "uuid" | "ipv4" | "ipv6" | "hostname";
                                                maximum?: number;
                                                maxLength?: number;
                                                minimum?: number;
                                                minLength?: number;
                                                pattern?: string;
                                                required?: boolean;
                                                type?: ("string" | "number" | "integer" | "boolean" | "null") | ("string" | "number" | "integer" | "boolean" | "null")[];
                                            };
                                        };
                                        /** @enum {unknown} */
                                        unplannedProperties?: "allow" | "violation";
                                        value?: {
                                            description?: string;
                                            maximum?: number;
                                            minimum?: number;
                                            required?: boolean;
                                        };
                                    };
                                };
                                /** @enum {unknown} */
                                mode: "observe" | "block" | "strip";
                                /** @enum {unknown} */
                                unplannedEvents: "allow" | "violation";
                                /** @enum {unknown} */
                                unplannedProperties: "allow" | "violation";
                            };
                            savedAt: string;
                            savedBy: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{env}/violations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    from?: string;
                    to?: string;
                };
                header?: never;
                path: {
                    env: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            from: string;
                            groups: {
                                eventType: string;
                                examples: {
                                    planVersion: number;
                                    record: string;
                                    violations: {
                                        field: string;
                                        message: string;
                                        /** @enum {unknown} */
                                        rule: "required" | "wrong_type" | "unplanned_property" | "unplanned_event" | "out_of_range" | "not_in_enum" | "pattern" | "format";
                                    }[];
                                }[];
                                firstAt: string;
                                lastAt: string;
                                records: number;
                                refused: number;
                                /** @enum {unknown} */
                                rule: "required" | "wrong_type" | "unplanned_property" | "unplanned_event" | "out_of_range" | "not_in_enum" | "pattern" | "format";
                                sdkVersion: string;
                                stored: number;
                                stripped: number;
                            }[];
                            refused: number;
                            stripped: number;
                            to: string;
                            total: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/escalation-policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            policies: {
                                id: string;
                                name: string;
                                repeat: number;
                                steps: {
                                    targets: {
                                        id: string;
                                        /** @enum {unknown} */
                                        kind: "schedule" | "user" | "destination" | "policy";
                                    }[];
                                    waitMinutes: number;
                                }[];
                                updatedAt: string;
                                updatedBy: string;
                                version: number;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        repeat?: number;
                        steps: {
                            targets: {
                                id: string;
                                /** @enum {unknown} */
                                kind: "schedule" | "user" | "destination" | "policy";
                            }[];
                            waitMinutes: number;
                        }[];
                        version?: number;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            repeat: number;
                            steps: {
                                targets: {
                                    id: string;
                                    /** @enum {unknown} */
                                    kind: "schedule" | "user" | "destination" | "policy";
                                }[];
                                waitMinutes: number;
                            }[];
                            updatedAt: string;
                            updatedBy: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/escalation-policies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            repeat: number;
                            steps: {
                                targets: {
                                    id: string;
                                    /** @enum {unknown} */
                                    kind: "schedule" | "user" | "destination" | "policy";
                                }[];
                                waitMinutes: number;
                            }[];
                            updatedAt: string;
                            updatedBy: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        repeat?: number;
                        steps: {
                            targets: {
                                id: string;
                                /** @enum {unknown} */
                                kind: "schedule" | "user" | "destination" | "policy";
                            }[];
                            waitMinutes: number;
                        }[];
                        version?: number;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            repeat: number;
                            steps: {
                                targets: {
                                    id: string;
                                    /** @enum {unknown} */
                                    kind: "schedule" | "user" | "destination" | "policy";
                                }[];
                                waitMinutes: number;
                            }[];
                            updatedAt: string;
                            updatedBy: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/heartbeats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            heartbeats: {
                                graceSeconds: number;
                                integrationId: string;
                                intervalSeconds: number;
                                lastPayloadAt: string | null;
                                name: string;
                                since: string;
                                /** @enum {unknown} */
                                state: "up" | "down";
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                    status?: "open" | "pending" | "triggered" | "acknowledged" | "suppressed" | "resolved" | "all";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            incidents: {
                                /** Format: date-time */
                                acknowledgedAt?: string;
                                acknowledgedBy?: string;
                                alerts: number;
                                /** Format: date-time */
                                firstSeenAt: string;
                                id: string;
                                key: string;
                                /** Format: date-time */
                                lastSeenAt: string;
                                mergedInto?: string;
                                mergingInto?: string;
                                minAlerts: number;
                                openAlerts: number;
                                overflow?: number;
                                previousIncidentId?: string;
                                /** Format: date-time */
                                resolvedAt?: string;
                                resolvedBy?: string;
                                rule?: string;
                                /** @enum {unknown} */
                                severity: "critical" | "high" | "warning" | "info";
                                /** @enum {unknown} */
                                status: "pending" | "triggered" | "acknowledged" | "suppressed" | "resolved";
                                title: string;
                                windowMs: number;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/incidents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    members?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            acknowledgedAt?: string;
                            acknowledgedBy?: string;
                            alerts: number;
                            /** Format: date-time */
                            firstSeenAt: string;
                            id: string;
                            key: string;
                            /** Format: date-time */
                            lastSeenAt: string;
                            members: {
                                /** Format: date-time */
                                acknowledgedAt?: string;
                                acknowledgedBy?: string;
                                correlationId?: string;
                                count: number;
                                customFields: {
                                    [key: string]: string;
                                };
                                dedupKey: string;
                                description: string;
                                environment?: string;
                                /** Format: date-time */
                                firstSeenAt: string;
                                id: string;
                                incidentId?: string;
                                inhibitedBy?: string;
                                integrationId: string;
                                lastRequestId?: string;
                                /** Format: date-time */
                                lastSeenAt: string;
                                overBudget?: string;
                                previousAlertId?: string;
                                /** Format: date-time */
                                resolvedAt?: string;
                                resolvedBy?: string;
                                rulesApplied?: string[];
                                rulesVersion?: number;
                                service?: string;
                                /** @enum {unknown} */
                                severity: "critical" | "high" | "warning" | "info";
                                source: string;
                                /** @enum {unknown} */
                                status: "firing" | "acknowledged" | "resolved" | "suppressed" | "inhibited";
                                suppressedBy?: string;
                                /** Format: date-time */
                                suppressedUntil?: string;
                                tags?: string[];
                                team?: string;
                                timestamp: string;
                            }[];
                            mergedInto?: string;
                            mergingInto?: string;
                            minAlerts: number;
                            openAlerts: number;
                            overflow?: number;
                            previousIncidentId?: string;
                            /** Format: date-time */
                            resolvedAt?: string;
                            resolvedBy?: string;
                            rule?: string;
                            /** @enum {unknown} */
                            severity: "critical" | "high" | "warning" | "info";
                            /** @enum {unknown} */
                            status: "pending" | "triggered" | "acknowledged" | "suppressed" | "resolved";
                            timeline: {
                                alertId?: string;
                                /** Format: date-time */
                                at: string;
                                by?: string;
                                event: string;
                                incidentId?: string;
                                paged?: {
                                    afterMinutes?: number;
                                    id: string;
                                    kind: string;
                                    method?: string;
                                    name?: string;
                                    problem?: string;
                                    schedule?: string;
                                    via?: string;
                                }[];
                                policyId?: string;
                                round?: number;
                                step?: number;
                            }[];
                            title: string;
                            windowMs: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/incidents/{id}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            acknowledgedAt?: string;
                            acknowledgedBy?: string;
                            alerts: number;
                            /** Format: date-time */
                            firstSeenAt: string;
                            id: string;
                            key: string;
                            /** Format: date-time */
                            lastSeenAt: string;
                            mergedInto?: string;
                            mergingInto?: string;
                            minAlerts: number;
                            openAlerts: number;
                            overflow?: number;
                            previousIncidentId?: string;
                            /** Format: date-time */
                            resolvedAt?: string;
                            resolvedBy?: string;
                            rule?: string;
                            /** @enum {unknown} */
                            severity: "critical" | "high" | "warning" | "info";
                            /** @enum {unknown} */
                            status: "pending" | "triggered" | "acknowledged" | "suppressed" | "resolved";
                            title: string;
                            windowMs: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/incidents/{id}/alerts/{alertId}/remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    alertId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            acknowledgedAt?: string;
                            acknowledgedBy?: string;
                            correlationId?: string;
                            count: number;
                            customFields: {
                                [key: string]: string;
                            };
                            dedupKey: string;
                            description: string;
                            environment?: string;
                            /** Format: date-time */
                            firstSeenAt: string;
                            id: string;
                            incidentId?: string;
                            inhibitedBy?: string;
                            integrationId: string;
                            lastRequestId?: string;
                            /** Format: date-time */
                            lastSeenAt: string;
                            overBudget?: string;
                            previousAlertId?: string;
                            /** Format: date-time */
                            resolvedAt?: string;
                            resolvedBy?: string;
                            rulesApplied?: string[];
                            rulesVersion?: number;
                            service?: string;
                            /** @enum {unknown} */
                            severity: "critical" | "high" | "warning" | "info";
                            source: string;
                            /** @enum {unknown} */
                            status: "firing" | "acknowledged" | "resolved" | "suppressed" | "inhibited";
                            suppressedBy?: string;
                            /** Format: date-time */
                            suppressedUntil?: string;
                            tags?: string[];
                            team?: string;
                            timestamp: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/incidents/{id}/escalation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            nextAt?: string;
                            policyId?: string;
                            round?: number;
                            running: boolean;
                            step?: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/incidents/{id}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        from: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            acknowledgedAt?: string;
                            acknowledgedBy?: string;
                            alerts: number;
                            /** Format: date-time */
                            firstSeenAt: string;
                            id: string;
                            key: string;
                            /** Format: date-time */
                            lastSeenAt: string;
                            mergedInto?: string;
                            mergingInto?: string;
                            minAlerts: number;
                            openAlerts: number;
                            overflow?: number;
                            previousIncidentId?: string;
                            /** Format: date-time */
                            resolvedAt?: string;
                            resolvedBy?: string;
                            rule?: string;
                            /** @enum {unknown} */
                            severity: "critical" | "high" | "warning" | "info";
                            /** @enum {unknown} */
                            status: "pending" | "triggered" | "acknowledged" | "suppressed" | "resolved";
                            title: string;
                            windowMs: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/incidents/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            acknowledgedAt?: string;
                            acknowledgedBy?: string;
                            alerts: number;
                            /** Format: date-time */
                            firstSeenAt: string;
                            id: string;
                            key: string;
                            /** Format: date-time */
                            lastSeenAt: string;
                            mergedInto?: string;
                            mergingInto?: string;
                            minAlerts: number;
                            openAlerts: number;
                            overflow?: number;
                            previousIncidentId?: string;
                            /** Format: date-time */
                            resolvedAt?: string;
                            resolvedBy?: string;
                            rule?: string;
                            /** @enum {unknown} */
                            severity: "critical" | "high" | "warning" | "info";
                            /** @enum {unknown} */
                            status: "pending" | "triggered" | "acknowledged" | "suppressed" | "resolved";
                            title: string;
                            windowMs: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            integrations: {
                                autoResolveAfterSeconds: number | null;
                                /** Format: date-time */
                                createdAt: string;
                                description: string;
                                emitRepeats: boolean;
                                id: string;
                                lifecycleCounts?: {
                                    dedupFallback: number;
                                    dropped: number;
                                    ignored: number;
                                    overBudget: number;
                                    statusUnknown: number;
                                    suppressed: number;
                                };
                                mapping: {
                                    [key: string]: unknown;
                                };
                                name: string;
                                /** @enum {unknown} */
                                rateLimitStatus: 429 | 503;
                                sample?: unknown;
                                senderAuth: {
                                    /** @enum {unknown} */
                                    preset?: "grafana" | "github" | "standard-webhooks";
                                    /** @enum {unknown} */
                                    scheme: "bearer" | "basic" | "hmac";
                                    secrets: number;
                                } | null;
                                template: string;
                                /** Format: date-time */
                                updatedAt: string;
                                webhookAddressId: string;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        autoResolveAfterSeconds?: number | null;
                        description?: string | null;
                        emitRepeats?: boolean;
                        mapping?: {
                            [key: string]: unknown;
                        };
                        name: string;
                        /** @enum {unknown} */
                        rateLimitStatus?: 429 | 503;
                        sample?: unknown | null;
                        template?: ("alertmanager" | "grafana" | "datadog" | "pagerduty" | "opsgenie" | "generic" | "custom" | "") | null;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            autoResolveAfterSeconds: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            description: string;
                            emitRepeats: boolean;
                            id: string;
                            lifecycleCounts?: {
                                dedupFallback: number;
                                dropped: number;
                                ignored: number;
                                overBudget: number;
                                statusUnknown: number;
                                suppressed: number;
                            };
                            mapping: {
                                [key: string]: unknown;
                            };
                            name: string;
                            /** @enum {unknown} */
                            rateLimitStatus: 429 | 503;
                            sample?: unknown;
                            senderAuth: {
                                /** @enum {unknown} */
                                preset?: "grafana" | "github" | "standard-webhooks";
                                /** @enum {unknown} */
                                scheme: "bearer" | "basic" | "hmac";
                                secrets: number;
                            } | null;
                            template: string;
                            /** Format: date-time */
                            updatedAt: string;
                            webhookAddressId: string;
                        } & {
                            testCommand: string;
                            webhookUrl: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            autoResolveAfterSeconds: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            description: string;
                            emitRepeats: boolean;
                            id: string;
                            lifecycleCounts?: {
                                dedupFallback: number;
                                dropped: number;
                                ignored: number;
                                overBudget: number;
                                statusUnknown: number;
                                suppressed: number;
                            };
                            mapping: {
                                [key: string]: unknown;
                            };
                            name: string;
                            /** @enum {unknown} */
                            rateLimitStatus: 429 | 503;
                            sample?: unknown;
                            senderAuth: {
                                /** @enum {unknown} */
                                preset?: "grafana" | "github" | "standard-webhooks";
                                /** @enum {unknown} */
                                scheme: "bearer" | "basic" | "hmac";
                                secrets: number;
                            } | null;
                            template: string;
                            /** Format: date-time */
                            updatedAt: string;
                            webhookAddressId: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        autoResolveAfterSeconds?: number | null;
                        description?: string | null;
                        emitRepeats?: boolean;
                        mapping?: {
                            [key: string]: unknown;
                        };
                        name: string;
                        /** @enum {unknown} */
                        rateLimitStatus?: 429 | 503;
                        sample?: unknown | null;
                        template?: ("alertmanager" | "grafana" | "datadog" | "pagerduty" | "opsgenie" | "generic" | "custom" | "") | null;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            autoResolveAfterSeconds: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            description: string;
                            emitRepeats: boolean;
                            id: string;
                            lifecycleCounts?: {
                                dedupFallback: number;
                                dropped: number;
                                ignored: number;
                                overBudget: number;
                                statusUnknown: number;
                                suppressed: number;
                            };
                            mapping: {
                                [key: string]: unknown;
                            };
                            name: string;
                            /** @enum {unknown} */
                            rateLimitStatus: 429 | 503;
                            sample?: unknown;
                            senderAuth: {
                                /** @enum {unknown} */
                                preset?: "grafana" | "github" | "standard-webhooks";
                                /** @enum {unknown} */
                                scheme: "bearer" | "basic" | "hmac";
                                secrets: number;
                            } | null;
                            template: string;
                            /** Format: date-time */
                            updatedAt: string;
                            webhookAddressId: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            deleted: true;
                            id: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        autoResolveAfterSeconds?: number | null;
                        description?: string | null;
                        emitRepeats?: boolean;
                        mapping?: {
                            [key: string]: unknown;
                        };
                        name?: string;
                        /** @enum {unknown} */
                        rateLimitStatus?: 429 | 503;
                        sample?: unknown | null;
                        template?: ("alertmanager" | "grafana" | "datadog" | "pagerduty" | "opsgenie" | "generic" | "custom" | "") | null;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            autoResolveAfterSeconds: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            description: string;
                            emitRepeats: boolean;
                            id: string;
                            lifecycleCounts?: {
                                dedupFallback: number;
                                dropped: number;
                                ignored: number;
                                overBudget: number;
                                statusUnknown: number;
                                suppressed: number;
                            };
                            mapping: {
                                [key: string]: unknown;
                            };
                            name: string;
                            /** @enum {unknown} */
                            rateLimitStatus: 429 | 503;
                            sample?: unknown;
                            senderAuth: {
                                /** @enum {unknown} */
                                preset?: "grafana" | "github" | "standard-webhooks";
                                /** @enum {unknown} */
                                scheme: "bearer" | "basic" | "hmac";
                                secrets: number;
                            } | null;
                            template: string;
                            /** Format: date-time */
                            updatedAt: string;
                            webhookAddressId: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/integrations/{id}/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    before?: string;
                    limit: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alerts: ({
                                id: string;
                            } & {
                                alertId?: string;
                                by?: string;
                                count?: number;
                                event?: string;
                                id?: string;
                                previousAlertId?: string;
                                rulesApplied?: string[];
                                rulesVersion?: number;
                                suppressedBy?: string;
                                /** Format: date-time */
                                suppressedUntil?: string;
                                tags?: string[];
                            } & {
                                correlationId?: string;
                                customFields?: {
                                    [key: string]: string;
                                };
                                dedupKey?: string;
                                description?: string;
                                environment?: string;
                                integrationId?: string;
                                /** Format: date-time */
                                receivedAt?: string;
                                requestId?: string;
                                service?: string;
                                /** @enum {unknown} */
                                severity?: "critical" | "high" | "warning" | "info";
                                source?: string;
                                /** @enum {unknown} */
                                status?: "firing" | "acknowledged" | "resolved";
                                team?: string;
                                /** Format: date-time */
                                timestamp?: string;
                            })[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{id}/authentication": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authentication: {
                                failures: {
                                    count: number;
                                    lastAt: string | null;
                                    lastReason: string | null;
                                };
                                /** @enum {unknown} */
                                preset?: "grafana" | "github" | "standard-webhooks";
                                /** @enum {unknown} */
                                scheme: "bearer" | "basic" | "hmac";
                                secrets: {
                                    /** Format: date-time */
                                    createdAt: string;
                                    id: string;
                                    lastUsedAt: string | null;
                                }[];
                                signatureHeader?: string;
                                timestampHeader?: string;
                                toleranceSeconds?: number;
                                username?: string;
                            } | null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {unknown} */
                        preset?: "grafana" | "github" | "standard-webhooks";
                        /** @enum {unknown} */
                        scheme: "bearer" | "basic" | "hmac";
                        secret?: string;
                        signatureHeader?: string;
                        timestampHeader?: string;
                        toleranceSeconds?: number;
                        username?: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authentication: {
                                failures: {
                                    count: number;
                                    lastAt: string | null;
                                    lastReason: string | null;
                                };
                                /** @enum {unknown} */
                                preset?: "grafana" | "github" | "standard-webhooks";
                                /** @enum {unknown} */
                                scheme: "bearer" | "basic" | "hmac";
                                secrets: {
                                    /** Format: date-time */
                                    createdAt: string;
                                    id: string;
                                    lastUsedAt: string | null;
                                }[];
                                signatureHeader?: string;
                                timestampHeader?: string;
                                toleranceSeconds?: number;
                                username?: string;
                            };
                            secret: {
                                id: string;
                                value: string;
                            };
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{id}/authentication/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        secret?: string;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authentication: {
                                failures: {
                                    count: number;
                                    lastAt: string | null;
                                    lastReason: string | null;
                                };
                                /** @enum {unknown} */
                                preset?: "grafana" | "github" | "standard-webhooks";
                                /** @enum {unknown} */
                                scheme: "bearer" | "basic" | "hmac";
                                secrets: {
                                    /** Format: date-time */
                                    createdAt: string;
                                    id: string;
                                    lastUsedAt: string | null;
                                }[];
                                signatureHeader?: string;
                                timestampHeader?: string;
                                toleranceSeconds?: number;
                                username?: string;
                            };
                            secret: {
                                id: string;
                                value: string;
                            };
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{id}/authentication/secrets/{secretId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    secretId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            failures: {
                                count: number;
                                lastAt: string | null;
                                lastReason: string | null;
                            };
                            /** @enum {unknown} */
                            preset?: "grafana" | "github" | "standard-webhooks";
                            /** @enum {unknown} */
                            scheme: "bearer" | "basic" | "hmac";
                            secrets: {
                                /** Format: date-time */
                                createdAt: string;
                                id: string;
                                lastUsedAt: string | null;
                            }[];
                            signatureHeader?: string;
                            timestampHeader?: string;
                            toleranceSeconds?: number;
                            username?: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{id}/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        graceSeconds?: number;
                        intervalSeconds: number;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            graceSeconds: number;
                            integrationId: string;
                            intervalSeconds: number;
                            lastPayloadAt: string | null;
                            name: string;
                            since: string;
                            /** @enum {unknown} */
                            state: "up" | "down";
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{id}/payloads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            payloads: {
                                bytes: number;
                                kept: boolean;
                                payload: unknown;
                                /** Format: date-time */
                                receivedAt: string;
                                requestId: string;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{id}/rejections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            reasons: {
                                examples: {
                                    payload: string;
                                    receivedAt: string;
                                    requestId: string;
                                    truncated: boolean;
                                }[];
                                lastAt: string;
                                reason: string;
                                records: number;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: {
                    revoke?: "now";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            autoResolveAfterSeconds: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            description: string;
                            emitRepeats: boolean;
                            id: string;
                            lifecycleCounts?: {
                                dedupFallback: number;
                                dropped: number;
                                ignored: number;
                                overBudget: number;
                                statusUnknown: number;
                                suppressed: number;
                            };
                            mapping: {
                                [key: string]: unknown;
                            };
                            name: string;
                            /** @enum {unknown} */
                            rateLimitStatus: 429 | 503;
                            sample?: unknown;
                            senderAuth: {
                                /** @enum {unknown} */
                                preset?: "grafana" | "github" | "standard-webhooks";
                                /** @enum {unknown} */
                                scheme: "bearer" | "basic" | "hmac";
                                secrets: number;
                            } | null;
                            template: string;
                            /** Format: date-time */
                            updatedAt: string;
                            webhookAddressId: string;
                        } & {
                            /** Format: date-time */
                            previousAddressValidUntil: string;
                            testCommand: string;
                            webhookUrl: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{id}/tail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        mapping?: {
                            [key: string]: unknown;
                        };
                        payload?: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alerts: {
                                correlationId?: string;
                                customFields: {
                                    [key: string]: string;
                                };
                                dedupKey: string;
                                description: string;
                                environment?: string;
                                integrationId: string;
                                /** Format: date-time */
                                receivedAt: string;
                                requestId: string;
                                service?: string;
                                /** @enum {unknown} */
                                severity: "critical" | "high" | "warning" | "info";
                                source: string;
                                /** @enum {unknown} */
                                status: "firing" | "acknowledged" | "resolved";
                                team?: string;
                                /** Format: date-time */
                                timestamp: string;
                            }[];
                            rejected: {
                                index: number;
                                reason: string;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys/cs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        keys: {
                            [key: string]: unknown;
                        }[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys/cs/beacon": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        entries: {
                            keys: {
                                [key: string]: unknown;
                            }[];
                        } & {
                            [key: string]: unknown;
                        };
                        sdk?: string;
                        sim?: string;
                        token: string;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys/ss": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        keys: {
                            [key: string]: unknown;
                        }[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/maintenance-windows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            windows: {
                                activeNow: boolean;
                                /** Format: date-time */
                                createdAt: string;
                                id: string;
                                name: string;
                                next: {
                                    /** Format: date-time */
                                    end: string;
                                    /** Format: date-time */
                                    start: string;
                                } | null;
                                schedule: {
                                    /** Format: date-time */
                                    from: string;
                                    /** @enum {string} */
                                    kind: "once";
                                    /** Format: date-time */
                                    to: string;
                                } | {
                                    days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                                    end: string;
                                    /** @enum {string} */
                                    kind: "weekly";
                                    start: string;
                                    timeZone: string;
                                };
                                /** Format: date-time */
                                updatedAt: string;
                                when?: unknown;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        schedule: unknown;
                        when?: unknown;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            activeNow: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            id: string;
                            name: string;
                            next: {
                                /** Format: date-time */
                                end: string;
                                /** Format: date-time */
                                start: string;
                            } | null;
                            schedule: {
                                /** Format: date-time */
                                from: string;
                                /** @enum {string} */
                                kind: "once";
                                /** Format: date-time */
                                to: string;
                            } | {
                                days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                                end: string;
                                /** @enum {string} */
                                kind: "weekly";
                                start: string;
                                timeZone: string;
                            };
                            /** Format: date-time */
                            updatedAt: string;
                            when?: unknown;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/maintenance-windows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            activeNow: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            id: string;
                            name: string;
                            next: {
                                /** Format: date-time */
                                end: string;
                                /** Format: date-time */
                                start: string;
                            } | null;
                            schedule: {
                                /** Format: date-time */
                                from: string;
                                /** @enum {string} */
                                kind: "once";
                                /** Format: date-time */
                                to: string;
                            } | {
                                days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                                end: string;
                                /** @enum {string} */
                                kind: "weekly";
                                start: string;
                                timeZone: string;
                            };
                            /** Format: date-time */
                            updatedAt: string;
                            when?: unknown;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        schedule: unknown;
                        when?: unknown;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            activeNow: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            id: string;
                            name: string;
                            next: {
                                /** Format: date-time */
                                end: string;
                                /** Format: date-time */
                                start: string;
                            } | null;
                            schedule: {
                                /** Format: date-time */
                                from: string;
                                /** @enum {string} */
                                kind: "once";
                                /** Format: date-time */
                                to: string;
                            } | {
                                days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                                end: string;
                                /** @enum {string} */
                                kind: "weekly";
                                start: string;
                                timeZone: string;
                            };
                            /** Format: date-time */
                            updatedAt: string;
                            when?: unknown;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/maintenance-windows/calendar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    from?: string;
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            windows: {
                                activeNow: boolean;
                                id: string;
                                name: string;
                                occurrences: {
                                    /** Format: date-time */
                                    end: string;
                                    /** Format: date-time */
                                    start: string;
                                }[];
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/metrics/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/metrics/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/metrics/usage/beacon": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        entries: {
                            [key: string]: unknown;
                        };
                        sdk?: string;
                        sim?: string;
                        token: string;
                    };
                };
            };
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/noise": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            windows: {
                                alerts: number;
                                alertsPerIncident: number | null;
                                alertsPerNotification: number | null;
                                /** Format: date-time */
                                from: string;
                                hours: number;
                                incidents: number;
                                inhibited: number;
                                noisiest: {
                                    alerts: number;
                                    incidents: number;
                                    inhibited: number;
                                    integrationId: string;
                                    received: number;
                                    transient: number;
                                }[];
                                notifications: number;
                                received: number;
                                transient: number;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            alert: {
                                [key: string]: unknown;
                            };
                            alertId: string;
                            attempts: number;
                            /** Format: date-time */
                            createdAt: string;
                            deliveredAt: string | null;
                            destinationId: string;
                            /** @enum {unknown} */
                            event: "triggered" | "reopened" | "acknowledged" | "resolved" | "repeated" | "updated";
                            /** Format: date-time */
                            giveUpAt: string;
                            id: string;
                            lastError: string | null;
                            lastStatus: string | null;
                            log: {
                                /** Format: date-time */
                                at: string;
                                error?: string;
                                events: number;
                                ms: number;
                                /** @enum {unknown} */
                                result: "delivered" | "retry" | "give-up";
                                status?: number;
                            }[];
                            nextAttemptAt: string | null;
                            /** @enum {unknown} */
                            status: "pending" | "delivered" | "dead" | "cancelled";
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-deliveries/dead": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveries: {
                                alert: {
                                    [key: string]: unknown;
                                };
                                alertId: string;
                                attempts: number;
                                /** Format: date-time */
                                createdAt: string;
                                deliveredAt: string | null;
                                destinationId: string;
                                /** @enum {unknown} */
                                event: "triggered" | "reopened" | "acknowledged" | "resolved" | "repeated" | "updated";
                                /** Format: date-time */
                                giveUpAt: string;
                                id: string;
                                lastError: string | null;
                                lastStatus: string | null;
                                log: {
                                    /** Format: date-time */
                                    at: string;
                                    error?: string;
                                    events: number;
                                    ms: number;
                                    /** @enum {unknown} */
                                    result: "delivered" | "retry" | "give-up";
                                    status?: number;
                                }[];
                                nextAttemptAt: string | null;
                                /** @enum {unknown} */
                                status: "pending" | "delivered" | "dead" | "cancelled";
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            destinations: {
                                /** Format: date-time */
                                createdAt: string;
                                delay?: string;
                                enabled: boolean;
                                events: ("triggered" | "reopened" | "acknowledged" | "resolved" | "repeated" | "updated")[];
                                id: string;
                                /** @enum {unknown} */
                                kind: "webhook" | "slack" | "pagerduty" | "email";
                                limits: {
                                    burst: number;
                                    concurrency: number;
                                    maxDigest: number;
                                    ratePerSecond: number;
                                };
                                name: string;
                                repeatAfterMinutes?: number;
                                settings: {
                                    [key: string]: unknown;
                                };
                                updateAfterMinutes?: number;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                            route: string[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        delay?: string;
                        enabled?: boolean;
                        events?: ("triggered" | "reopened" | "acknowledged" | "resolved" | "repeated" | "updated")[];
                        /** @enum {unknown} */
                        kind: "webhook" | "slack" | "pagerduty" | "email";
                        limits?: {
                            burst?: number;
                            concurrency?: number;
                            maxDigest?: number;
                            ratePerSecond?: number;
                        };
                        name: string;
                        repeatAfterMinutes?: number;
                        settings: {
                            [key: string]: unknown;
                        };
                        updateAfterMinutes?: number;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            destination: {
                                /** Format: date-time */
                                createdAt: string;
                                delay?: string;
                                enabled: boolean;
                                events: ("triggered" | "reopened" | "acknowledged" | "resolved" | "repeated" | "updated")[];
                                id: string;
                                /** @enum {unknown} */
                                kind: "webhook" | "slack" | "pagerduty" | "email";
                                limits: {
                                    burst: number;
                                    concurrency: number;
                                    maxDigest: number;
                                    ratePerSecond: number;
                                };
                                name: string;
                                repeatAfterMinutes?: number;
                                settings: {
                                    [key: string]: unknown;
                                };
                                updateAfterMinutes?: number;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                            signingSecret?: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-destinations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            delay?: string;
                            enabled: boolean;
                            events: ("triggered" | "reopened" | "acknowledged" | "resolved" | "repeated" | "updated")[];
                            id: string;
                            /** @enum {unknown} */
                            kind: "webhook" | "slack" | "pagerduty" | "email";
                            limits: {
                                burst: number;
                                concurrency: number;
                                maxDigest: number;
                                ratePerSecond: number;
                            };
                            name: string;
                            repeatAfterMinutes?: number;
                            settings: {
                                [key: string]: unknown;
                            };
                            updateAfterMinutes?: number;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        delay?: string;
                        enabled?: boolean;
                        events?: ("triggered" | "reopened" | "acknowledged" | "resolved" | "repeated" | "updated")[];
                        /** @enum {unknown} */
                        kind: "webhook" | "slack" | "pagerduty" | "email";
                        limits?: {
                            burst?: number;
                            concurrency?: number;
                            maxDigest?: number;
                            ratePerSecond?: number;
                        };
                        name: string;
                        repeatAfterMinutes?: number;
                        settings: {
                            [key: string]: unknown;
                        };
                        updateAfterMinutes?: number;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            createdAt: string;
                            delay?: string;
                            enabled: boolean;
                            events: ("triggered" | "reopened" | "acknowledged" | "resolved" | "repeated" | "updated")[];
                            id: string;
                            /** @enum {unknown} */
                            kind: "webhook" | "slack" | "pagerduty" | "email";
                            limits: {
                                burst: number;
                                concurrency: number;
                                maxDigest: number;
                                ratePerSecond: number;
                            };
                            name: string;
                            repeatAfterMinutes?: number;
                            settings: {
                                [key: string]: unknown;
                            };
                            updateAfterMinutes?: number;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-destinations/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveries: {
                                alert: {
                                    [key: string]: unknown;
                                };
                                alertId: string;
                                attempts: number;
                                /** Format: date-time */
                                createdAt: string;
                                deliveredAt: string | null;
                                destinationId: string;
                                /** @enum {unknown} */
                                event: "triggered" | "reopened" | "acknowledged" | "resolved" | "repeated" | "updated";
                                /** Format: date-time */
                                giveUpAt: string;
                                id: string;
                                lastError: string | null;
                                lastStatus: string | null;
                                log: {
                                    /** Format: date-time */
                                    at: string;
                                    error?: string;
                                    events: number;
                                    ms: number;
                                    /** @enum {unknown} */
                                    result: "delivered" | "retry" | "give-up";
                                    status?: number;
                                }[];
                                nextAttemptAt: string | null;
                                /** @enum {unknown} */
                                status: "pending" | "delivered" | "dead" | "cancelled";
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-destinations/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                            /** @enum {unknown} */
                            result: "delivered" | "retry" | "give-up";
                            retryAfterMs?: number;
                            status?: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-route": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            destinations: string[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        destinations: string[];
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            destinations: string[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-volume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    hours?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            hours: {
                                /** Format: date-time */
                                at: string;
                                destinations: {
                                    [key: string]: {
                                        dead: number;
                                        delivered: number;
                                        failed: number;
                                    };
                                };
                                total: {
                                    dead: number;
                                    delivered: number;
                                    failed: number;
                                };
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oncall/act/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oncall/default-policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            policyId: string | null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        policyId: string | null;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            policyId: string | null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oncall/feeds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        scheduleId: string;
                    } | {
                        userId: string;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            url: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oncall/feeds/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oncall/responders/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            contactMethods: ({
                                address: string;
                                id: string;
                                /** @enum {string} */
                                kind: "email";
                                via?: string;
                            } | {
                                id: string;
                                /** @enum {string} */
                                kind: "slack";
                                memberId: string;
                                via?: string;
                            } | {
                                destinationId: string;
                                id: string;
                                /** @enum {string} */
                                kind: "webhook";
                            })[];
                            rules: {
                                afterMinutes: number;
                                contactMethod: string;
                                /** @enum {unknown} */
                                urgency: "high" | "low";
                            }[];
                            updatedAt: string | null;
                            userId: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        contactMethods: ({
                            address: string;
                            id: string;
                            /** @enum {string} */
                            kind: "email";
                            via?: string;
                        } | {
                            id: string;
                            /** @enum {string} */
                            kind: "slack";
                            memberId: string;
                            via?: string;
                        } | {
                            destinationId: string;
                            id: string;
                            /** @enum {string} */
                            kind: "webhook";
                        })[];
                        rules: {
                            afterMinutes: number;
                            contactMethod: string;
                            /** @enum {unknown} */
                            urgency: "high" | "low";
                        }[];
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            contactMethods: ({
                                address: string;
                                id: string;
                                /** @enum {string} */
                                kind: "email";
                                via?: string;
                            } | {
                                id: string;
                                /** @enum {string} */
                                kind: "slack";
                                memberId: string;
                                via?: string;
                            } | {
                                destinationId: string;
                                id: string;
                                /** @enum {string} */
                                kind: "webhook";
                            })[];
                            rules: {
                                afterMinutes: number;
                                contactMethod: string;
                                /** @enum {unknown} */
                                urgency: "high" | "low";
                            }[];
                            updatedAt: string | null;
                            userId: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oncall/slack-app": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            set: boolean;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        signingSecret: string | null;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            set: boolean;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oncall/slack/{accountId}/interactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": string;
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blocks?: unknown[];
                            replace_original?: boolean;
                            /** @enum {string} */
                            response_type?: "ephemeral";
                            text: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            schedules: {
                                id: string;
                                layers: {
                                    end?: string;
                                    name: string;
                                    responders: string[];
                                    restrictions?: {
                                        days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                                        from: string;
                                        to: string;
                                    }[];
                                    rotation: {
                                        length: number;
                                        /** @enum {unknown} */
                                        unit: "hours" | "days" | "weeks";
                                    };
                                    start: string;
                                }[];
                                name: string;
                                overrides: {
                                    from: string;
                                    responder: string;
                                    to: string;
                                }[];
                                timeZone: string;
                                updatedAt: string;
                                updatedBy: string;
                                version: number;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        layers: {
                            end?: string;
                            name: string;
                            responders: string[];
                            restrictions?: {
                                days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                                from: string;
                                to: string;
                            }[];
                            rotation: {
                                length: number;
                                /** @enum {unknown} */
                                unit: "hours" | "days" | "weeks";
                            };
                            start: string;
                        }[];
                        name: string;
                        overrides?: {
                            from: string;
                            responder: string;
                            to: string;
                        }[];
                        timeZone: string;
                        version?: number;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            layers: {
                                end?: string;
                                name: string;
                                responders: string[];
                                restrictions?: {
                                    days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                                    from: string;
                                    to: string;
                                }[];
                                rotation: {
                                    length: number;
                                    /** @enum {unknown} */
                                    unit: "hours" | "days" | "weeks";
                                };
                                start: string;
                            }[];
                            name: string;
                            overrides: {
                                from: string;
                                responder: string;
                                to: string;
                            }[];
                            timeZone: string;
                            updatedAt: string;
                            updatedBy: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            layers: {
                                end?: string;
                                name: string;
                                responders: string[];
                                restrictions?: {
                                    days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                                    from: string;
                                    to: string;
                                }[];
                                rotation: {
                                    length: number;
                                    /** @enum {unknown} */
                                    unit: "hours" | "days" | "weeks";
                                };
                                start: string;
                            }[];
                            name: string;
                            overrides: {
                                from: string;
                                responder: string;
                                to: string;
                            }[];
                            timeZone: string;
                            updatedAt: string;
                            updatedBy: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        layers: {
                            end?: string;
                            name: string;
                            responders: string[];
                            restrictions?: {
                                days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                                from: string;
                                to: string;
                            }[];
                            rotation: {
                                length: number;
                                /** @enum {unknown} */
                                unit: "hours" | "days" | "weeks";
                            };
                            start: string;
                        }[];
                        name: string;
                        overrides?: {
                            from: string;
                            responder: string;
                            to: string;
                        }[];
                        timeZone: string;
                        version?: number;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            layers: {
                                end?: string;
                                name: string;
                                responders: string[];
                                restrictions?: {
                                    days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                                    from: string;
                                    to: string;
                                }[];
                                rotation: {
                                    length: number;
                                    /** @enum {unknown} */
                                    unit: "hours" | "days" | "weeks";
                                };
                                start: string;
                            }[];
                            name: string;
                            overrides: {
                                from: string;
                                responder: string;
                                to: string;
                            }[];
                            timeZone: string;
                            updatedAt: string;
                            updatedBy: string;
                            version: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}/on-call": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    at?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            at: string;
                            responder: {
                                displayName?: string;
                                id: string;
                                userName: string;
                            } | null;
                            until: string | null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}/shifts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    days?: number;
                    from?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            from: string;
                            shifts: {
                                end: string;
                                responder: {
                                    displayName?: string;
                                    id: string;
                                    userName: string;
                                };
                                start: string;
                            }[];
                            to: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhookId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | unknown[];
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            duplicate: true;
                            requestId: string;
                        };
                    };
                };
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook/{webhookId}/v2/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhookId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | unknown[];
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            duplicate: true;
                            requestId: string;
                        };
                    };
                };
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook/{webhookId}/v2/alerts/{identifier}/{action}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: {
                    identifierType?: "alias" | "id" | "tiny";
                };
                header?: never;
                path: {
                    action: "close" | "acknowledge" | "unacknowledge";
                    identifier: string;
                    webhookId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            requestId: string;
                            /** @enum {boolean} */
                            spooled?: true;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{ws}/experiment-defaults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checksDimension: string | null;
                            /** @enum {unknown} */
                            correction: "bh" | "holm" | "none";
                            /** @enum {unknown} */
                            correctionScope: "all" | "metric" | "slice";
                            cuped: boolean;
                            /** @enum {unknown} */
                            engine: "frequentist" | "bayesian";
                            /** @enum {unknown} */
                            prior: "flat" | "proper";
                            priorMean: number;
                            priorVariance: number;
                            sequential: boolean;
                            sequentialTuning: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        checksDimension?: string | null;
                        /** @enum {unknown} */
                        correction?: "bh" | "holm" | "none";
                        /** @enum {unknown} */
                        correctionScope?: "all" | "metric" | "slice";
                        cuped?: boolean;
                        /** @enum {unknown} */
                        engine?: "frequentist" | "bayesian";
                        /** @enum {unknown} */
                        prior?: "flat" | "proper";
                        priorMean?: number;
                        priorVariance?: number;
                        sequential?: boolean;
                        sequentialTuning?: number;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checksDimension: string | null;
                            /** @enum {unknown} */
                            correction: "bh" | "holm" | "none";
                            /** @enum {unknown} */
                            correctionScope: "all" | "metric" | "slice";
                            cuped: boolean;
                            /** @enum {unknown} */
                            engine: "frequentist" | "bayesian";
                            /** @enum {unknown} */
                            prior: "flat" | "proper";
                            priorMean: number;
                            priorVariance: number;
                            sequential: boolean;
                            sequentialTuning: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{ws}/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            metrics: {
                                cap?: number | null;
                                capPercentile?: number | null;
                                /** Format: date-time */
                                createdAt: string;
                                denominatorEventTypeId?: string | null;
                                description: string;
                                /** @enum {unknown} */
                                desiredDirection: "increase" | "decrease";
                                eventTypeId: string;
                                guardrail?: boolean;
                                id: string;
                                name: string;
                                preExposureDays?: number | null;
                                propertyFilter?: {
                                    /** @enum {unknown} */
                                    operator: "equals" | "not_equals" | "greater_than" | "less_than";
                                    property: string;
                                    value: string | number | boolean;
                                } | null;
                                quantile?: number | null;
                                trafficType: string;
                                /** @enum {unknown} */
                                type: "count_per_key" | "sum_per_key" | "average_per_key" | "ratio_per_key" | "percent_of_keys" | "quantile_of_events" | "quantile_per_key";
                                /** Format: date-time */
                                updatedAt: string;
                                valueProperty?: string | null;
                                workspaceId: string;
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        cap?: number | null;
                        capPercentile?: number | null;
                        denominatorEventTypeId?: string | null;
                        description?: string;
                        /** @enum {unknown} */
                        desiredDirection: "increase" | "decrease";
                        eventTypeId: string;
                        guardrail?: boolean;
                        name: string;
                        preExposureDays?: number | null;
                        propertyFilter?: {
                            /** @enum {unknown} */
                            operator: "equals" | "not_equals" | "greater_than" | "less_than";
                            property: string;
                            value: string | number | boolean;
                        } | null;
                        quantile?: number | null;
                        trafficType: string;
                        /** @enum {unknown} */
                        type: "count_per_key" | "sum_per_key" | "average_per_key" | "ratio_per_key" | "percent_of_keys" | "quantile_of_events" | "quantile_per_key";
                        valueProperty?: string | null;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cap?: number | null;
                            capPercentile?: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            denominatorEventTypeId?: string | null;
                            description: string;
                            /** @enum {unknown} */
                            desiredDirection: "increase" | "decrease";
                            eventTypeId: string;
                            guardrail?: boolean;
                            id: string;
                            name: string;
                            preExposureDays?: number | null;
                            propertyFilter?: {
                                /** @enum {unknown} */
                                operator: "equals" | "not_equals" | "greater_than" | "less_than";
                                property: string;
                                value: string | number | boolean;
                            } | null;
                            quantile?: number | null;
                            trafficType: string;
                            /** @enum {unknown} */
                            type: "count_per_key" | "sum_per_key" | "average_per_key" | "ratio_per_key" | "percent_of_keys" | "quantile_of_events" | "quantile_per_key";
                            /** Format: date-time */
                            updatedAt: string;
                            valueProperty?: string | null;
                            workspaceId: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{ws}/metrics-audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: {
                                /** @enum {unknown} */
                                action: "create" | "update" | "delete";
                                /** Format: date-time */
                                at: string;
                                definition?: Record<string, never>;
                                metricId: string;
                                name: string;
                                who: {
                                    id: string;
                                    name: string;
                                };
                            }[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{ws}/metrics/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cap?: number | null;
                            capPercentile?: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            denominatorEventTypeId?: string | null;
                            description: string;
                            /** @enum {unknown} */
                            desiredDirection: "increase" | "decrease";
                            eventTypeId: string;
                            guardrail?: boolean;
                            id: string;
                            name: string;
                            preExposureDays?: number | null;
                            propertyFilter?: {
                                /** @enum {unknown} */
                                operator: "equals" | "not_equals" | "greater_than" | "less_than";
                                property: string;
                                value: string | number | boolean;
                            } | null;
                            quantile?: number | null;
                            trafficType: string;
                            /** @enum {unknown} */
                            type: "count_per_key" | "sum_per_key" | "average_per_key" | "ratio_per_key" | "percent_of_keys" | "quantile_of_events" | "quantile_per_key";
                            /** Format: date-time */
                            updatedAt: string;
                            valueProperty?: string | null;
                            workspaceId: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    ws: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        cap?: number | null;
                        capPercentile?: number | null;
                        denominatorEventTypeId?: string | null;
                        description?: string;
                        /** @enum {unknown} */
                        desiredDirection: "increase" | "decrease";
                        eventTypeId: string;
                        guardrail?: boolean;
                        name: string;
                        preExposureDays?: number | null;
                        propertyFilter?: {
                            /** @enum {unknown} */
                            operator: "equals" | "not_equals" | "greater_than" | "less_than";
                            property: string;
                            value: string | number | boolean;
                        } | null;
                        quantile?: number | null;
                        trafficType: string;
                        /** @enum {unknown} */
                        type: "count_per_key" | "sum_per_key" | "average_per_key" | "ratio_per_key" | "percent_of_keys" | "quantile_of_events" | "quantile_per_key";
                        valueProperty?: string | null;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cap?: number | null;
                            capPercentile?: number | null;
                            /** Format: date-time */
                            createdAt: string;
                            denominatorEventTypeId?: string | null;
                            description: string;
                            /** @enum {unknown} */
                            desiredDirection: "increase" | "decrease";
                            eventTypeId: string;
                            guardrail?: boolean;
                            id: string;
                            name: string;
                            preExposureDays?: number | null;
                            propertyFilter?: {
                                /** @enum {unknown} */
                                operator: "equals" | "not_equals" | "greater_than" | "less_than";
                                property: string;
                                value: string | number | boolean;
                            } | null;
                            quantile?: number | null;
                            trafficType: string;
                            /** @enum {unknown} */
                            type: "count_per_key" | "sum_per_key" | "average_per_key" | "ratio_per_key" | "percent_of_keys" | "quantile_of_events" | "quantile_per_key";
                            /** Format: date-time */
                            updatedAt: string;
                            valueProperty?: string | null;
                            workspaceId: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SluiceError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        attributes?: string[] | string;
                        count?: number;
                        excludedAttributes?: string[] | string;
                        filter?: string;
                        schemas?: string[];
                        startIndex?: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            itemsPerPage: number;
                            Resources: ({
                                active?: boolean;
                                displayName?: string;
                                emails?: {
                                    primary?: boolean;
                                    type?: string;
                                    value?: string;
                                }[];
                                externalId?: string;
                                groups?: {
                                    display?: string;
                                    /** @enum {string} */
                                    type?: "direct";
                                    value?: string;
                                }[];
                                id: string;
                                meta?: {
                                    /** Format: date-time */
                                    created?: string;
                                    /** Format: date-time */
                                    lastModified?: string;
                                    location?: string;
                                    /** @enum {string} */
                                    resourceType?: "User";
                                    version?: string;
                                };
                                name?: {
                                    familyName?: string;
                                    formatted?: string;
                                    givenName?: string;
                                };
                                schemas: string[];
                                userName?: string;
                            } | {
                                displayName?: string;
                                externalId?: string;
                                id: string;
                                members?: {
                                    /** @enum {string} */
                                    type?: "User";
                                    value?: string;
                                }[];
                                meta?: {
                                    /** Format: date-time */
                                    created?: string;
                                    /** Format: date-time */
                                    lastModified?: string;
                                    location?: string;
                                    /** @enum {string} */
                                    resourceType?: "Group";
                                    version?: string;
                                };
                                schemas: string[];
                            })[];
                            schemas: string[];
                            startIndex: number;
                            totalResults: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/Groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    attributes?: string;
                    count?: string;
                    excludedAttributes?: string;
                    filter?: string;
                    startIndex?: string;
                };
                header?: never;
                path: {
                    account: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            itemsPerPage: number;
                            Resources: {
                                displayName?: string;
                                externalId?: string;
                                id: string;
                                members?: {
                                    /** @enum {string} */
                                    type?: "User";
                                    value?: string;
                                }[];
                                meta?: {
                                    /** Format: date-time */
                                    created?: string;
                                    /** Format: date-time */
                                    lastModified?: string;
                                    location?: string;
                                    /** @enum {string} */
                                    resourceType?: "Group";
                                    version?: string;
                                };
                                schemas: string[];
                            }[];
                            schemas: string[];
                            startIndex: number;
                            totalResults: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            displayName?: string;
                            externalId?: string;
                            id: string;
                            members?: {
                                /** @enum {string} */
                                type?: "User";
                                value?: string;
                            }[];
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                /** @enum {string} */
                                resourceType?: "Group";
                                version?: string;
                            };
                            schemas: string[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/Groups/.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        attributes?: string[] | string;
                        count?: number;
                        excludedAttributes?: string[] | string;
                        filter?: string;
                        schemas?: string[];
                        startIndex?: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            itemsPerPage: number;
                            Resources: {
                                displayName?: string;
                                externalId?: string;
                                id: string;
                                members?: {
                                    /** @enum {string} */
                                    type?: "User";
                                    value?: string;
                                }[];
                                meta?: {
                                    /** Format: date-time */
                                    created?: string;
                                    /** Format: date-time */
                                    lastModified?: string;
                                    location?: string;
                                    /** @enum {string} */
                                    resourceType?: "Group";
                                    version?: string;
                                };
                                schemas: string[];
                            }[];
                            schemas: string[];
                            startIndex: number;
                            totalResults: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/Groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    attributes?: string;
                    count?: string;
                    excludedAttributes?: string;
                    filter?: string;
                    startIndex?: string;
                };
                header?: never;
                path: {
                    account: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            displayName?: string;
                            externalId?: string;
                            id: string;
                            members?: {
                                /** @enum {string} */
                                type?: "User";
                                value?: string;
                            }[];
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                /** @enum {string} */
                                resourceType?: "Group";
                                version?: string;
                            };
                            schemas: string[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            displayName?: string;
                            externalId?: string;
                            id: string;
                            members?: {
                                /** @enum {string} */
                                type?: "User";
                                value?: string;
                            }[];
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                /** @enum {string} */
                                resourceType?: "Group";
                                version?: string;
                            };
                            schemas: string[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": null;
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            displayName?: string;
                            externalId?: string;
                            id: string;
                            members?: {
                                /** @enum {string} */
                                type?: "User";
                                value?: string;
                            }[];
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                /** @enum {string} */
                                resourceType?: "Group";
                                version?: string;
                            };
                            schemas: string[];
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/ResourceTypes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            schemas: string[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/ResourceTypes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            schemas: string[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/Schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            schemas: string[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/Schemas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            schemas: string[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/ServiceProviderConfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            schemas: string[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/Users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    attributes?: string;
                    count?: string;
                    excludedAttributes?: string;
                    filter?: string;
                    startIndex?: string;
                };
                header?: never;
                path: {
                    account: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            itemsPerPage: number;
                            Resources: {
                                active?: boolean;
                                displayName?: string;
                                emails?: {
                                    primary?: boolean;
                                    type?: string;
                                    value?: string;
                                }[];
                                externalId?: string;
                                groups?: {
                                    display?: string;
                                    /** @enum {string} */
                                    type?: "direct";
                                    value?: string;
                                }[];
                                id: string;
                                meta?: {
                                    /** Format: date-time */
                                    created?: string;
                                    /** Format: date-time */
                                    lastModified?: string;
                                    location?: string;
                                    /** @enum {string} */
                                    resourceType?: "User";
                                    version?: string;
                                };
                                name?: {
                                    familyName?: string;
                                    formatted?: string;
                                    givenName?: string;
                                };
                                schemas: string[];
                                userName?: string;
                            }[];
                            schemas: string[];
                            startIndex: number;
                            totalResults: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            active?: boolean;
                            displayName?: string;
                            emails?: {
                                primary?: boolean;
                                type?: string;
                                value?: string;
                            }[];
                            externalId?: string;
                            groups?: {
                                display?: string;
                                /** @enum {string} */
                                type?: "direct";
                                value?: string;
                            }[];
                            id: string;
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                /** @enum {string} */
                                resourceType?: "User";
                                version?: string;
                            };
                            name?: {
                                familyName?: string;
                                formatted?: string;
                                givenName?: string;
                            };
                            schemas: string[];
                            userName?: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/Users/.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        attributes?: string[] | string;
                        count?: number;
                        excludedAttributes?: string[] | string;
                        filter?: string;
                        schemas?: string[];
                        startIndex?: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            itemsPerPage: number;
                            Resources: {
                                active?: boolean;
                                displayName?: string;
                                emails?: {
                                    primary?: boolean;
                                    type?: string;
                                    value?: string;
                                }[];
                                externalId?: string;
                                groups?: {
                                    display?: string;
                                    /** @enum {string} */
                                    type?: "direct";
                                    value?: string;
                                }[];
                                id: string;
                                meta?: {
                                    /** Format: date-time */
                                    created?: string;
                                    /** Format: date-time */
                                    lastModified?: string;
                                    location?: string;
                                    /** @enum {string} */
                                    resourceType?: "User";
                                    version?: string;
                                };
                                name?: {
                                    familyName?: string;
                                    formatted?: string;
                                    givenName?: string;
                                };
                                schemas: string[];
                                userName?: string;
                            }[];
                            schemas: string[];
                            startIndex: number;
                            totalResults: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gateway/ng/api/scim/account/{account}/Users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    attributes?: string;
                    count?: string;
                    excludedAttributes?: string;
                    filter?: string;
                    startIndex?: string;
                };
                header?: never;
                path: {
                    account: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            active?: boolean;
                            displayName?: string;
                            emails?: {
                                primary?: boolean;
                                type?: string;
                                value?: string;
                            }[];
                            externalId?: string;
                            groups?: {
                                display?: string;
                                /** @enum {string} */
                                type?: "direct";
                                value?: string;
                            }[];
                            id: string;
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                /** @enum {string} */
                                resourceType?: "User";
                                version?: string;
                            };
                            name?: {
                                familyName?: string;
                                formatted?: string;
                                givenName?: string;
                            };
                            schemas: string[];
                            userName?: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            active?: boolean;
                            displayName?: string;
                            emails?: {
                                primary?: boolean;
                                type?: string;
                                value?: string;
                            }[];
                            externalId?: string;
                            groups?: {
                                display?: string;
                                /** @enum {string} */
                                type?: "direct";
                                value?: string;
                            }[];
                            id: string;
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                /** @enum {string} */
                                resourceType?: "User";
                                version?: string;
                            };
                            name?: {
                                familyName?: string;
                                formatted?: string;
                                givenName?: string;
                            };
                            schemas: string[];
                            userName?: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": null;
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    account: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            active?: boolean;
                            displayName?: string;
                            emails?: {
                                primary?: boolean;
                                type?: string;
                                value?: string;
                            }[];
                            externalId?: string;
                            groups?: {
                                display?: string;
                                /** @enum {string} */
                                type?: "direct";
                                value?: string;
                            }[];
                            id: string;
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                /** @enum {string} */
                                resourceType?: "User";
                                version?: string;
                            };
                            name?: {
                                familyName?: string;
                                formatted?: string;
                                givenName?: string;
                            };
                            schemas: string[];
                            userName?: string;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/gateway/ng/api/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    accountIdentifier: string;
                    category?: "SCIM";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            correlationId: string;
                            data: {
                                effectiveAt: number | null;
                                lastModifiedAt: number | null;
                                pendingValue: string | null;
                                setting: {
                                    allowOverrides: boolean;
                                    /** @enum {string} */
                                    category: "SCIM";
                                    defaultValue: null;
                                    groupIdentifier: string;
                                    identifier: string | null;
                                    isSettingEditable: boolean;
                                    settingSource: string;
                                    value: string | null;
                                    valueType: string;
                                };
                            }[];
                            metaData: null;
                            /** @enum {string} */
                            status: "SUCCESS";
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HarnessError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HarnessError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HarnessError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HarnessError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query: {
                    accountIdentifier: string;
                    category?: "SCIM";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": unknown[];
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            correlationId: string;
                            data: {
                                effectiveAt: number | null;
                                errorMessage: string | null;
                                identifier: string | null;
                                lastModifiedAt: number | null;
                                setting: {
                                    allowOverrides: boolean;
                                    /** @enum {string} */
                                    category: "SCIM";
                                    defaultValue: null;
                                    groupIdentifier: string;
                                    identifier: string | null;
                                    isSettingEditable: boolean;
                                    settingSource: string;
                                    value: string | null;
                                    valueType: string;
                                };
                                updateStatus: boolean;
                            }[];
                            metaData: null;
                            /** @enum {string} */
                            status: "SUCCESS";
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HarnessError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HarnessError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HarnessError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HarnessError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/environments/ws/{ws}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            production: boolean;
                        }[];
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/segments/{env}/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            creationTime: number;
                            description: string;
                            environment: {
                                id: string;
                                name: string;
                            };
                            environmentURN: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                type: "Environment";
                            };
                            lastUpdateTime: number;
                            name: string;
                            status: string;
                            trafficType: {
                                id: string;
                                name: string;
                            } | null;
                            /** @enum {string} */
                            type: "Segment";
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": true;
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/segments/{env}/{name}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    limit: number;
                    offset: number;
                };
                header?: never;
                path: {
                    env: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            limit: number;
                            objects: {
                                /** @enum {unknown} */
                                action: "create" | "activate" | "upload" | "replace" | "removeKeys" | "deactivate" | "delete";
                                /** Format: date-time */
                                at: string;
                                comment: string | null;
                                count?: number;
                                environment: {
                                    id: string;
                                    name: string;
                                } | null;
                                title: string | null;
                                who: {
                                    id: string;
                                    name: string;
                                };
                            }[];
                            offset: number;
                            totalCount: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/segments/{env}/{name}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    limit: number;
                    offset: number;
                };
                header?: never;
                path: {
                    env: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            keys: {
                                key: string;
                            }[];
                            limit: number;
                            offset: number;
                            openChangeRequestId: null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/segments/{env}/{name}/removeKeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: {
                    comment?: string;
                    replace?: string;
                    title?: string;
                };
                header?: never;
                path: {
                    env: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        comment?: string | null;
                        keys: string[];
                        title?: string | null;
                    };
                    "text/csv": string;
                    "text/plain": string;
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {number} */
                            code: 200;
                            details: null;
                            message: string;
                            transactionId: null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/segments/{env}/{name}/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: {
                    comment?: string;
                    replace?: string;
                    title?: string;
                };
                header?: never;
                path: {
                    env: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": string[] | {
                        comment?: string | null;
                        keys: string[];
                        title?: string | null;
                    };
                    "text/csv": string;
                    "text/plain": string;
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            creationTime: number;
                            description: string;
                            environment: {
                                id: string;
                                name: string;
                            };
                            environmentURN: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                type: "Environment";
                            };
                            lastUpdateTime: number;
                            name: string;
                            status: string;
                            trafficType: {
                                id: string;
                                name: string;
                            } | null;
                            /** @enum {string} */
                            type: "Segment";
                        } & {
                            keysCount: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/segments/{env}/{name}/uploadKeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: {
                    comment?: string;
                    replace?: string;
                    title?: string;
                };
                header?: never;
                path: {
                    env: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": string[] | {
                        comment?: string | null;
                        keys: string[];
                        title?: string | null;
                    };
                    "text/csv": string;
                    "text/plain": string;
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            creationTime: number;
                            description: string;
                            environment: {
                                id: string;
                                name: string;
                            };
                            environmentURN: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                type: "Environment";
                            };
                            lastUpdateTime: number;
                            name: string;
                            status: string;
                            trafficType: {
                                id: string;
                                name: string;
                            } | null;
                            /** @enum {string} */
                            type: "Segment";
                        } & {
                            keysCount: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/segments/ws/{ws}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    limit: number;
                    offset: number;
                };
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            limit: number;
                            objects: {
                                creationTime: number;
                                description: string;
                                name: string;
                                tags: null;
                                trafficType: {
                                    id: string;
                                    name: string;
                                };
                            }[];
                            offset: number;
                            totalCount: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/segments/ws/{ws}/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": true;
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/segments/ws/{ws}/{name}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    limit: number;
                    offset: number;
                };
                header?: never;
                path: {
                    name: string;
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            limit: number;
                            objects: {
                                /** @enum {unknown} */
                                action: "create" | "activate" | "upload" | "replace" | "removeKeys" | "deactivate" | "delete";
                                /** Format: date-time */
                                at: string;
                                comment: string | null;
                                count?: number;
                                environment: {
                                    id: string;
                                    name: string;
                                } | null;
                                title: string | null;
                                who: {
                                    id: string;
                                    name: string;
                                };
                            }[];
                            offset: number;
                            totalCount: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/segments/ws/{ws}/environments/{env}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    limit: number;
                    offset: number;
                };
                header?: never;
                path: {
                    env: string;
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            limit: number;
                            objects: {
                                creationTime: number;
                                description: string;
                                environment: {
                                    id: string;
                                    name: string;
                                };
                                environmentURN: {
                                    id: string;
                                    name: string;
                                    /** @enum {string} */
                                    type: "Environment";
                                };
                                lastUpdateTime: number;
                                name: string;
                                status: string;
                                trafficType: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @enum {string} */
                                type: "Segment";
                            }[];
                            offset: number;
                            totalCount: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/segments/ws/{ws}/trafficTypes/{trafficType}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    trafficType: string;
                    ws: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string | null;
                        name: string;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            creationTime: number;
                            description: string;
                            name: string;
                            tags: null;
                            trafficType: {
                                id: string;
                                name: string;
                            };
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/trafficTypes/{trafficType}/environments/{env}/identities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    trafficType: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": unknown[];
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: null;
                            failed: {
                                message: string;
                                object: unknown;
                                status: number;
                            }[];
                            limit: null;
                            metadata: null;
                            objects: {
                                environmentId: string;
                                key: string;
                                organizationId: string;
                                trafficTypeId: string;
                                values: {
                                    [key: string]: string;
                                };
                            }[];
                            offset: null;
                            total: null;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/trafficTypes/{trafficType}/environments/{env}/identities/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    key: string;
                    trafficType: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            key: string;
                            organizationId: string;
                            trafficTypeId: string;
                            values: {
                                [key: string]: string;
                            };
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    key: string;
                    trafficType: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        environmentId?: unknown;
                        key?: unknown;
                        trafficTypeId?: unknown;
                        values?: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            key: string;
                            organizationId: string;
                            trafficTypeId: string;
                            values: {
                                [key: string]: string;
                            };
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    key: string;
                    trafficType: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": true;
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    key: string;
                    trafficType: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        environmentId?: unknown;
                        key?: unknown;
                        trafficTypeId?: unknown;
                        values?: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            key: string;
                            organizationId: string;
                            trafficTypeId: string;
                            values: {
                                [key: string]: string;
                            };
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/internal/api/v2/trafficTypes/{trafficType}/environments/{env}/identities/{key}/patch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    env: string;
                    key: string;
                    trafficType: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        environmentId?: unknown;
                        key?: unknown;
                        trafficTypeId?: unknown;
                        values?: unknown;
                    };
                };
            };
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            environmentId: string;
                            key: string;
                            organizationId: string;
                            trafficTypeId: string;
                            values: {
                                [key: string]: string;
                            };
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/trafficTypes/ws/{ws}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            displayAttributeId: null;
                            id: string;
                            name: string;
                        }[];
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/api/v2/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    limit: number;
                    offset: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            limit: number;
                            objects: {
                                id: string;
                                name: string;
                                requiresTitleAndComments: boolean;
                                /** @enum {string} */
                                type: "workspace";
                            }[];
                            offset: number;
                            totalCount: number;
                        };
                    };
                };
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            message: string;
                            /** @enum {unknown} */
                            statusCode: 431;
                        };
                    };
                };
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SplitError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        HarnessError: {
            code: string;
            correlationId: string;
            errors: {
                error: string;
                fieldId: string;
            }[];
            message: string;
            /** @enum {string} */
            status: "FAILURE";
        } | {
            code: string;
            correlationId: string;
            detailedMessage: null;
            message: string;
            metadata: null;
            responseMessages: {
                code: string;
                exception: null;
                failureTypes: string[];
                level: string;
                message: string;
            }[];
            /** @enum {string} */
            status: "ERROR";
        };
        ScimError: {
            detail: string;
            schemas: string[];
            scimType?: string;
            status: string;
        };
        SluiceError: {
            /** @enum {unknown} */
            code: "BAD_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "PRECONDITION_FAILED" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "RATE_LIMITED" | "INTERNAL" | "UNAVAILABLE";
            details?: {
                field: string;
                problem: string;
            }[];
            message: string;
            requestId: string;
            statusCode: number;
        };
        SplitError: {
            code: number;
            details: {
                field: string;
                problem: string;
            }[] | null;
            message: string;
            transactionId: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
