# The one file an operator edits (docs/scaling.md): where Capa listens, and which addresses may
# send PURGE (Capa's own). capa.vcl includes it; start Varnish with
#   varnishd -f /etc/varnish/capa.vcl -p vcl_path=/etc/varnish -a :80
# and CAPA_EDGE_TOKEN in varnishd's environment (the same value as Capa's).

backend capa {
    .host = "127.0.0.1";
    .port = "3000";
    .connect_timeout = 2s;
    .first_byte_timeout = 10s;
    # GET /healthz answers 200 while Capa can serve; while it cannot, Varnish serves what it
    # keeps (grace) instead of an error.
    .probe = {
        .url = "/healthz";
        .interval = 2s;
        .timeout = 1s;
        .window = 3;
        .threshold = 2;
        .initial = 2;
    }
}

acl capa_purgers {
    "127.0.0.1";
    "::1";
}
