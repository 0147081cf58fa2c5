// The domain colour tokens drawn with the theme's palette are defined once, beside the blotter.
export { TOKEN_MANTINE, tokenCss, tokenFill } from '../../../components/grid/colours';
