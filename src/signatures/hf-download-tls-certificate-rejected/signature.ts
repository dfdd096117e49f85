import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'hf-download-tls-certificate-rejected',
  title: 'TLS certificate of the model hub rejected (proxy or missing CA bundle)',
  category: 'auth-or-download',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['certificate_verify_failed', 'certificate verify failed', 'sslcertverificationerror'],
  match: {
    message:
      /CERTIFICATE_VERIFY_FAILED\]? ?(?:certificate verify failed: (?<reason>[\w -]+))?|SSLCertVerificationError|certificate verify failed/,
  },
  explanation:
    'The HTTPS connection to the model hub (huggingface.co, its CDN, ModelScope or a mirror) was opened but the ' +
    'server certificate could not be verified, so no model file or config was fetched. On corporate networks a ' +
    'TLS-inspecting proxy re-signs traffic with its own CA, which the container’s CA bundle does not trust; ' +
    'elsewhere the image lacks ca-certificates or its clock is wrong.',
  fix: 'Give Python the proxy’s CA: mount it and set `REQUESTS_CA_BUNDLE=/etc/ssl/certs/corp-ca.pem` (and `SSL_CERT_FILE` / `CURL_CA_BUNDLE` to the same file), or install it with `update-ca-certificates` in the image.',
  action: [
    {
      kind: 'step',
      text: 'Give Python the proxy’s CA (mount it; SSL_CERT_FILE and CURL_CA_BUNDLE to the same file), or add it to the image with update-ca-certificates:',
    },
    { kind: 'environment-variable', name: 'REQUESTS_CA_BUNDLE', value: '/etc/ssl/certs/corp-ca.pem' },
  ],
  alternative:
    'Download the model on a machine with working TLS and serve it from a local path with HF_HUB_OFFLINE=1; check ' +
    'the container clock (`date`) when the certificate is reported as not yet valid.',
  references: [
    'https://github.com/huggingface/huggingface_hub/issues/1593',
    'https://github.com/huggingface/transformers/issues/17611',
  ],
});
