vcl 4.1;
# Varnish 7 in front of Capa's read API (decisions.md 14; docs/scaling.md). Needs varnish-modules
# for the xkey vmod (Debian: apt-get install varnish varnish-modules). Edit backend.vcl, not this
# file, and start
#   varnishd -f /etc/varnish/capa.vcl -p vcl_path=/etc/varnish -a :80
# with CAPA_EDGE_TOKEN (and CAPA_EDGE_SECRET, if Capa has one) in varnishd's environment.
#
# What it keeps: production-key GET answers of /api, which alone carry Surrogate-Control with a
# max-age, for that long, split by URL, host, API key, Svc-Version, Svc-Contract and Origin.
# What Capa purges: every answer holding one of the tags of a PURGE request's xkey-purge header.

import std;
import xkey;

include "backend.vcl";

sub vcl_recv {
    set req.backend_hint = capa;

    # Purges by tag, from the addresses of backend.vcl carrying the token varnishd was given.
    if (req.method == "PURGE") {
        if (client.ip !~ capa_purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!std.getenv("CAPA_EDGE_TOKEN") || req.http.Authorization != "Bearer " + std.getenv("CAPA_EDGE_TOKEN")) {
            return (synth(401, "Unauthorized"));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "No xkey-purge header"));
        }
        return (synth(200, "Purged " + xkey.purge(req.http.xkey-purge)));
    }

    # Keys travel in x-api-key, never in a cookie: cookies neither reach Capa nor split the cache.
    unset req.http.Cookie;
    # Only Varnish sets the edge secret, on its way to Capa (vcl_backend_fetch).
    unset req.http.x-svc-edge;

    # Only reads of the read API may be kept; management, media and preflights go straight through.
    if ((req.method != "GET" && req.method != "HEAD") || req.url !~ "^/api/") {
        return (pass);
    }
    # While Capa is up, an answer past its lifetime is served for at most 10 s more (refreshed in
    # the background); while it is down, for the whole grace of the answer (vcl_backend_response).
    if (std.healthy(req.backend_hint)) {
        set req.grace = 10s;
    }
    return (hash);
}

sub vcl_hash {
    hash_data(req.url);
    if (req.http.host) {
        hash_data(req.http.host);
    } else {
        hash_data(server.ip);
    }
    # The key and what chooses the answer's shape. hash_data feeds a SHA-256, so the key itself is
    # never kept; vcl_backend_response takes these headers out of the stored Vary for that reason.
    hash_data("key:" + req.http.x-api-key);
    hash_data("version:" + req.http.Svc-Version);
    hash_data("contract:" + req.http.Svc-Contract);
    hash_data("origin:" + req.http.Origin);
    return (lookup);
}

sub vcl_backend_fetch {
    if (std.getenv("CAPA_EDGE_SECRET")) {
        set bereq.http.x-svc-edge = std.getenv("CAPA_EDGE_SECRET");
    }
}

sub vcl_backend_response {
    # Refusals (a revoked key's 401, a 403) are never kept, and neither is any answer without an
    # edge lifetime: development keys, previews, errors, management. Hit-for-miss, as Varnish's
    # own default does, so a later cacheable answer is kept again.
    if (beresp.status == 401 || beresp.status == 403 || bereq.method != "GET" || beresp.http.Surrogate-Control !~ "max-age=[0-9]+") {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
    set beresp.ttl = std.duration(regsub(beresp.http.Surrogate-Control, "^.*max-age=([0-9]+).*$", "\1") + "s", 0s);
    # What is kept is served for up to 6 h past its lifetime while Capa is down (vcl_recv).
    set beresp.grace = 6h;
    unset beresp.http.Set-Cookie;
    unset beresp.http.Surrogate-Control;
    # The key, version, contract and origin are in the hash already; keeping them in the stored
    # Vary would keep the key's value with the object. Clients get Capa's Vary back (vcl_deliver).
    if (beresp.http.Vary) {
        set beresp.http.X-Capa-Vary = beresp.http.Vary;
        set beresp.http.Vary = regsuball(beresp.http.Vary, "(?i)(?<![-\w])(Origin|x-api-key|Svc-Version|Svc-Contract)(?![-\w])\s*(,\s*|$)", "");
        if (beresp.http.Vary !~ "\S") {
            unset beresp.http.Vary;
        }
    }
    return (deliver);
}

sub vcl_deliver {
    if (resp.http.X-Capa-Vary) {
        set resp.http.Vary = resp.http.X-Capa-Vary;
        unset resp.http.X-Capa-Vary;
    }
    # The tags and the lifetime are for this cache; Surrogate-Key stays, as Capa documents it.
    unset resp.http.xkey;
    unset resp.http.Cache-Tag;
    unset resp.http.Surrogate-Control;
    if (obj.uncacheable) {
        set resp.http.X-Cache = "PASS";
    } elsif (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
}

sub vcl_synth {
    # Plain words (a PURGE's "Purged 3"), which Capa's purger logs as they are.
    set resp.http.Content-Type = "text/plain; charset=utf-8";
    synthetic(resp.reason);
    return (deliver);
}
