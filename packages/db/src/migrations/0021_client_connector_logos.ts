// A client connector's logo, fetched once by the server and served from our own origin: the
// browsers no longer fetch a connector's logo_url from wherever it points (a tracking pixel, a request
// into the broker's network). One row per connector, for the logo_url it was fetched from: the image
// (its type checked, SVG sanitised) or why the fetch was refused, so a URL that failed is not fetched
// again on every view. Number 21: 20 was shipped and withdrawn (a database that ran it keeps its row).
export default /* sql */ `
CREATE TABLE client_connector_logos (
  connector_id  integer PRIMARY KEY REFERENCES client_connectors (id) ON DELETE CASCADE,
  source_url    text NOT NULL,
  content_type  text,
  image         bytea,
  sha256        text,
  problem       text,
  fetched_at    timestamptz NOT NULL DEFAULT now(),
  CHECK ((image IS NOT NULL AND content_type IS NOT NULL AND sha256 IS NOT NULL AND problem IS NULL)
      OR (image IS NULL AND content_type IS NULL AND sha256 IS NULL AND problem IS NOT NULL))
);
`;
